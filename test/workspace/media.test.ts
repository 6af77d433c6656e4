import { readFile, symlink, writeFile, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { imagePart, sniffImage } from '../../src/workspace/media.js'
import { BASIC, left, right, withTempDir } from './helpers.js'

const IMAGES = join(BASIC, 'images')

describe('sniffImage', () => {
  it('recognises PNG, JPEG, GIF and WebP by their magic numbers', async () => {
    expect(sniffImage(await readFile(join(IMAGES, 'chart.png')))).toBe('image/png')
    expect(sniffImage(await readFile(join(IMAGES, 'photo.jpg')))).toBe('image/jpeg')
    expect(sniffImage(await readFile(join(IMAGES, 'dot.gif')))).toBe('image/gif')
    expect(sniffImage(await readFile(join(IMAGES, 'sticker.webp')))).toBe('image/webp')
    expect(sniffImage(await readFile(join(IMAGES, 'notes.png')))).toBeUndefined()
    expect(sniffImage(new Uint8Array([0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x41, 0x56, 0x45]))).toBeUndefined() // RIFF WAVE
    expect(sniffImage(new Uint8Array([]))).toBeUndefined()
  })
})

describe('imagePart', () => {
  it('makes a base64 data URL of a workspace image, with the MIME type from its bytes', async () => {
    for (const [file, mime] of [
      ['images/chart.png', 'image/png'],
      ['images/photo.jpg', 'image/jpeg'],
      ['images/dot.gif', 'image/gif'],
      ['images/sticker.webp', 'image/webp'],
      // a JPEG named .png is sent as a JPEG
      ['images/looks-like-png.png', 'image/jpeg'],
    ] as const) {
      const bytes = await readFile(join(BASIC, file))
      expect(right(await imagePart(BASIC, file))).toEqual({ type: 'image_url', image_url: { url: `data:${mime};base64,${bytes.toString('base64')}` } })
    }
    // an absolute path inside the workspace works too
    expect(right(await imagePart(BASIC, join(IMAGES, 'chart.png'))).image_url.url).toMatch(/^data:image\/png;base64,iVBORw0KGgo/)
  })

  it('names the file and the problem: not an image, missing, a folder, too big, a URL', async () => {
    expect(left(await imagePart(BASIC, 'images/notes.png')).message).toBe(
      'media "images/notes.png": is not a PNG, JPEG, GIF or WebP image (its first bytes are 74 68 69 73 20 69 73 20)',
    )
    expect(left(await imagePart(BASIC, 'images/missing.png')).message).toBe(`media "images/missing.png": file not found (looked at ${join(IMAGES, 'missing.png')})`)
    expect(left(await imagePart(BASIC, 'images')).message).toBe('media "images": is a directory, not an image file')
    expect(left(await imagePart(BASIC, 'images/photo.jpg', { maxImageBytes: 100 })).message).toBe(
      'media "images/photo.jpg": is 287 bytes; the image limit is 100 bytes (maxImageBytes)',
    )
    expect(left(await imagePart(BASIC, 'https://example.com/cat.png')).message).toBe(
      'media "https://example.com/cat.png": URLs are not fetched; save the image into the workspace and pass its path',
    )
    expect(left(await imagePart(BASIC, 'data:image/png;base64,AAAA')).message).toMatch(/URLs are not fetched/)
  })

  it('refuses images outside the workspace, by path or symlink, unless their folder is allowed', () =>
    withTempDir(async (dir) => {
      const ws = join(dir, 'ws')
      const downloads = join(dir, 'downloads')
      await mkdir(ws)
      await mkdir(downloads)
      const png = await readFile(join(IMAGES, 'chart.png'))
      await writeFile(join(downloads, 'cat.png'), png)
      await symlink(join(downloads, 'cat.png'), join(ws, 'cat.png'))
      expect(left(await imagePart(ws, '../downloads/cat.png')).message).toBe(
        `media "../downloads/cat.png": resolves to ${join(downloads, 'cat.png')}, outside the workspace ${ws}; add its folder to mediaRoots to allow it`,
      )
      expect(left(await imagePart(ws, 'cat.png')).message).toMatch(/^media "cat\.png": resolves to .*downloads\/cat\.png, outside the workspace/)
      expect(right(await imagePart(ws, join(downloads, 'cat.png'), { mediaRoots: [downloads] })).image_url.url).toBe(`data:image/png;base64,${png.toString('base64')}`)
      expect(right(await imagePart(ws, 'cat.png', { mediaRoots: [downloads] })).type).toBe('image_url')
    }))
})
