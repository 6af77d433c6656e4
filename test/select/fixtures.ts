/** Builds the selector's input through the real gather stage. */
import type { Config } from '../../src/config.js'
import { additional, history, instructions, task } from '../../src/gather/builtins.js'
import type { PacketInput } from '../../src/packet.js'
import type { Gathered, SimpleMessage } from '../../src/phase.js'
import { gather } from '../../src/pipeline.js'
import { gpt4o, NOW, run } from '../helpers.js'

export const gathered = (
  request: { query: string; instructions?: string; history?: SimpleMessage[]; packets?: PacketInput[] },
  config: Partial<Config> = {},
): Promise<Gathered> =>
  run(gather([instructions(), task(), history(), additional()], { tokenizer: gpt4o, now: NOW, config })(request))
