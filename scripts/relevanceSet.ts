/**
 * A small labeled retrieval set for `npm run quality:relevance`: 30 runbook passages and 20
 * questions, each with the one passage that answers it. Written for this measure, not taken
 * from a benchmark. Ten questions use the passage's own words; ten ask in other forms of
 * them (inflections, compounds, abbreviations, a typo), where keyword matching has less to
 * hold on to; six ask in other words altogether (synonyms), which only a model of meaning
 * can match. Small by design: the figures compare scorers, they do not rate a model.
 *
 * @module
 */

/** One passage of the corpus. */
export interface Passage {
  readonly id: string
  readonly text: string
}

/** A question and the id of the passage that answers it. */
export interface Question {
  readonly query: string
  readonly answer: string
  /** `same`: asks in the passage's words; `variant`: in other forms of them; `synonym`: in other words. */
  readonly kind: 'same' | 'variant' | 'synonym'
}

/** The corpus. */
export const PASSAGES: ReadonlyArray<Passage> = [
  { id: 'cert', text: 'Rotating the TLS certificate: upload the new chain to the load balancer before the old certificate expires, then reload nginx.' },
  { id: 'node', text: 'The CI runners use Node 20; tests that import fetch need Node 18 or newer, so pin the version in .nvmrc.' },
  { id: 'flaky', text: 'Flaky end-to-end tests usually wait on animations; replace fixed sleeps with waiting for the element to be visible.' },
  { id: 'cache', text: 'Clearing the build cache: delete node_modules/.cache and the CI cache key, then rerun the pipeline from scratch.' },
  { id: 'migrate', text: 'Database migrations run before the deploy; a failed migration rolls back the release and pages the on-call engineer.' },
  { id: 'oauth', text: 'Authentication tokens expire after one hour; the client refreshes them with the refresh token from the OAuth provider.' },
  { id: 'leak', text: 'A memory leak in the worker shows as steadily growing heap usage; take two heap snapshots and compare retained objects.' },
  { id: 'dns', text: 'DNS changes take up to 48 hours to propagate; lower the TTL a day before moving the domain to the new host.' },
  { id: 'cors', text: 'Cross-origin requests fail when the API does not send Access-Control-Allow-Origin for the web app origin.' },
  { id: 'ratelimit', text: 'The public API allows 100 requests per minute per key; clients that exceed it get HTTP 429 and must back off.' },
  { id: 'logs', text: 'Application logs are shipped to the log cluster; search them by request id to follow one request across services.' },
  { id: 'backup', text: 'Nightly backups of the primary database are kept for 30 days; restoring one takes about twenty minutes.' },
  { id: 'docker', text: 'The Docker image is built in two stages so the final container carries only the compiled output and production dependencies.' },
  { id: 'secrets', text: 'Secrets live in the vault; never commit API keys to the repository, and rotate any key that was exposed.' },
  { id: 'scaling', text: 'Autoscaling adds workers when the queue is longer than 500 jobs for five minutes and removes them when it drains.' },
  { id: 'timeout', text: 'Gateway timeouts (HTTP 504) mean the upstream service took longer than 30 seconds to answer.' },
  { id: 'release', text: 'Release notes are generated from merged pull request titles; label each pull request as feature, fix or chore.' },
  { id: 'feature', text: 'Feature flags let a change ship dark; enable the flag for staff first, then for a percentage of users.' },
  { id: 'i18n', text: 'Translations are stored in one JSON file per locale; missing keys fall back to English at runtime.' },
  { id: 'perf', text: 'Slow page loads are often oversized images; serve resized WebP versions and lazy-load anything below the fold.' },
  { id: 'deps', text: 'Dependency updates are proposed weekly by a bot; merge patch releases after CI passes, review major ones by hand.' },
  { id: 'compile', text: 'The build fails when the compile script is missing from package.json; rename the old tsc script back to compile.' },
  { id: 'email', text: 'Outgoing email goes through the mail relay; bounced messages are recorded and the address is suppressed after three bounces.' },
  { id: 'cron', text: 'Scheduled jobs are defined as cron expressions in the scheduler config; times are in UTC, not local time.' },
  { id: 'search', text: 'The search index is rebuilt every night; a document edited during the day is searchable after the next reindex.' },
  { id: 'websocket', text: 'WebSocket connections drop after 60 idle seconds behind the proxy; send a ping every 30 seconds to keep them open.' },
  { id: 'payments', text: 'Payment webhooks are signed; verify the signature with the shared secret before trusting the event.' },
  { id: 'access', text: 'Production access requires a ticket and expires after eight hours; every session is recorded for audit.' },
  { id: 'monorepo', text: 'The monorepo builds only the packages a change touches, using the dependency graph between workspaces.' },
  { id: 'uptime', text: 'Uptime checks call the health endpoint every minute from three regions and alert after two failures in a row.' },
]

/** The questions. */
export const QUESTIONS: ReadonlyArray<Question> = [
  { query: 'How do I rotate the TLS certificate on the load balancer?', answer: 'cert', kind: 'same' },
  { query: 'Which Node version do the CI runners use?', answer: 'node', kind: 'same' },
  { query: 'How do I clear the build cache?', answer: 'cache', kind: 'same' },
  { query: 'What happens when a database migration fails?', answer: 'migrate', kind: 'same' },
  { query: 'How long do DNS changes take to propagate?', answer: 'dns', kind: 'same' },
  { query: 'How many requests per minute does the public API allow?', answer: 'ratelimit', kind: 'same' },
  { query: 'How long are nightly backups kept?', answer: 'backup', kind: 'same' },
  { query: 'Why does the build fail with a missing compile script?', answer: 'compile', kind: 'same' },
  { query: 'When is the search index rebuilt?', answer: 'search', kind: 'same' },
  { query: 'Why do WebSocket connections drop behind the proxy?', answer: 'websocket', kind: 'same' },
  { query: 'certs expiring soon, how to swap the chain?', answer: 'cert', kind: 'variant' },
  { query: 'migrating the db broke the release', answer: 'migrate', kind: 'variant' },
  { query: 'auth token keeps expiring every hour', answer: 'oauth', kind: 'variant' },
  { query: 'worker heap keeps growing, leaking memory?', answer: 'leak', kind: 'variant' },
  { query: 'getting 429s from the api, rate limited', answer: 'ratelimit', kind: 'variant' },
  { query: 'crossorigin request blocked in the webapp', answer: 'cors', kind: 'variant' },
  { query: 'autoscaler not adding workers for a long queue', answer: 'scaling', kind: 'variant' },
  { query: 'upstream took too long, gateway timed out', answer: 'timeout', kind: 'variant' },
  { query: 'translation missing for a locale key', answer: 'i18n', kind: 'variant' },
  { query: 'schedueld jobs run at the wrong hour', answer: 'cron', kind: 'variant' },
  { query: 'The website feels sluggish to open on phones', answer: 'perf', kind: 'synonym' },
  { query: 'How do I get yesterday’s data back after a bad delete?', answer: 'backup', kind: 'synonym' },
  { query: 'Someone leaked our password for the payment provider', answer: 'secrets', kind: 'synonym' },
  { query: 'Turn on a half-finished change only for employees', answer: 'feature', kind: 'synonym' },
  { query: 'Customers say our messages never reach their inbox', answer: 'email', kind: 'synonym' },
  { query: 'Is the service alive? Who gets told when it is down?', answer: 'uptime', kind: 'synonym' },
]
