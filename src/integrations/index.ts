/**
 * `gssc/integrations`: fitting inside the agent loops of the SDKs apps are built on, the
 * Vercel AI SDK (`fitStep`, a `prepareStep`) and LangChain.js (`fitMiddleware`, a
 * `createAgent` middleware). Neither SDK is imported: each helper takes what the SDK hands
 * its hook, so gssc needs neither installed.
 *
 * @module
 */
export * from './aiSdk.js'
export * from './modelCall.js'
export * from './tools.js'
export * from './langchain.js'
