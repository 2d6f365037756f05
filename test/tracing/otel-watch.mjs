import { registerHooks } from 'node:module';

/**
 * Preloaded into a service process by the tracing test (NODE_OPTIONS=--import): writes a line to stderr the first
 * time the process resolves a module of each OpenTelemetry package, so the test can tell which of them it loaded.
 */
const seen = new Set();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context);
    const name = /\/node_modules\/(@opentelemetry\/[^/]+)\//.exec(result.url)?.[1];
    if (name && !seen.has(name)) {
      seen.add(name);
      process.stderr.write(`otel-module-loaded ${name}\n`);
    }
    return result;
  },
});
