import { pino, stdTimeFunctions, type DestinationStream, type Logger } from 'pino';

/**
 * The one logger of the server and the worker: pino, one JSON object per line on stdout,
 * `{ level: "info", time: ISO 8601, …fields, msg? }`. The admin CLI's output is not logging and does not use it.
 *
 * Lines carry ids (request, account, key, job), never customer data or credentials. Redaction is the net under
 * that rule: any field below, at the top of a line or inside one of the objects lines carry, is written as
 * "[redacted]". Paths, not a deep scan: pino checks a path only when the line has its first segment, so request
 * lines pay nothing for it (a leading `*` wildcard would cost ~200 µs a line).
 */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Field names whose values never reach a log line. */
export const REDACTED_FIELDS = [
  // credentials
  'authorization', 'cookie', 'x-service-site-key', 'apiKey', 'key', 'siteKey', 'password', 'secret', 'secretKey',
  'webhookSigningSecret', 'token', 'verificationToken', 'cancellationToken', 'downloadToken',
  // people and what they submitted
  'email', 'ownerEmail', 'customerEmail', 'inviteeEmail', 'to', 'customerPhone', 'shippingAddress', 'formData',
  // hidden URLs and provider ids (contract: never in a body, a log line or an error)
  'url', 'webhookUrl', 'downloadUrl', 'videoCallUrl', 'providerEventId', 'providerPaymentId', 'providerPriceId',
  // settings that embed passwords
  'databaseUrl', 'directDatabaseUrl', 'redisUrl', 'smtpUrl', 'metricsToken', 'otelEndpoint',
] as const;

/** The objects a line may carry; their fields, and their children's, are redacted by the same names. */
export const LOGGED_OBJECTS = ['headers', 'error', 'job', 'data', 'input', 'body', 'variables', 'config', 'webhook', 'delivery', 'submission'] as const;

const segment = (field: string): string => (/^[A-Za-z_$][\w$]*$/.test(field) ? `.${field}` : `["${field}"]`);

/** `url` alone is the server's own address (the "listening" line), which is no secret; nested, it is redacted. */
const TOP_LEVEL = REDACTED_FIELDS.filter((field) => field !== 'url');

export const REDACT_PATHS: string[] = [
  ...TOP_LEVEL.map((field) => segment(field).replace(/^\./, '')),
  ...LOGGED_OBJECTS.flatMap((object) => REDACTED_FIELDS.flatMap((field) => [`${object}${segment(field)}`, `${object}.*${segment(field)}`])),
];

/**
 * A header whose name says it may carry a credential: Authorization and Proxy-Authorization, cookies, any `…key…`,
 * `…token…`, `…secret…`, `…signature…`, `…session…` or `…password…` header (X-Api-Key, X-Auth-Token, …). By
 * pattern, not by a list of names: a client may send a credential under any header, and a debug line must not
 * carry it.
 */
const CREDENTIAL_HEADER = /auth|cookie|key|token|secret|signature|session|passw/i;

/** A request's headers for a debug line, every credential-like one's value written as "[redacted]". */
export function loggableHeaders(headers: Headers): Record<string, string> {
  const loggable: Record<string, string> = {};
  for (const [name, value] of headers) loggable[name] = CREDENTIAL_HEADER.test(name) ? '[redacted]' : value;
  return loggable;
}

export function createLogger(destination: DestinationStream = process.stdout, level: LogLevel = 'info'): Logger {
  return pino(
    {
      level,
      // No pid/hostname: the orchestrator labels each process's stream already.
      base: null,
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    },
    // process.stdout itself (not pino's own fd writer): lines stay in order with the start-up banner.
    destination,
  );
}

/** Level `info` until the entry point applies LOG_LEVEL (`logger.level = config.logLevel`). */
export const logger = createLogger();

/** Error details that are safe to log: the name, a code, the first line of the message (no query arguments). */
export function describeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { name: typeof error };
  const code = (error as { code?: unknown }).code;
  return { name: error.name, ...(typeof code === 'string' && { code }), message: error.message.split('\n')[0]?.slice(0, 200) };
}

/** The name and code only, for errors whose message may quote data (a job's, an event's: a failed cast quotes the value). */
export function errorKind(error: unknown): { name: string; code?: string } {
  const code = (error as { code?: unknown } | null)?.code;
  return { name: error instanceof Error ? error.name : typeof error, ...(typeof code === 'string' && { code }) };
}
