// Each request's logger, made when the request first logs. Fastify gives every request a pino
// child carrying its id (`reqId`), and pino builds a child's bindings as JSON text when the child
// is made: about 4 us a request in the bench's V8 profiles (docs/performance.md "Node's side of a
// request"), spent on every request though at LOG_LEVEL=warn and above only refusals and errors
// write a line. This logger has the child's methods and makes the child on the first call whose
// level is enabled; a call below the level costs one comparison. At `info` and below (the
// default) Fastify logs every request, so the child is made as before, one call later.

import type { FastifyBaseLogger } from "fastify";

type Level = "fatal" | "error" | "warn" | "info" | "debug" | "trace";
/** pino's logger, which Fastify makes from the `logger` option. */
type PinoLogger = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

/** A logger standing in for `parent.child(bindings, options)` until something is logged. */
class RequestLogger {
  readonly #parent: PinoLogger;
  readonly #bindings: Record<string, unknown>;
  readonly #options: object;
  #child: PinoLogger | undefined;

  constructor(parent: PinoLogger, bindings: Record<string, unknown>, options: object) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  get level(): string {
    return (this.#child ?? this.#parent).level;
  }

  set level(level: string) {
    this.#made().level = level;
  }

  /** The real child, made once. */
  #made(): PinoLogger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options) as PinoLogger;
    return this.#child;
  }

  #log(level: Level, args: unknown[]): void {
    // The parent's level is the child's until someone sets the child's own (the setter makes it).
    const logger = this.#child ?? (this.#parent.isLevelEnabled(level) ? this.#made() : undefined);
    if (logger) (logger[level] as (...a: unknown[]) => void)(...args);
  }

  // Prototype methods, not arrow fields: nothing made per request but the object itself.
  fatal(...args: unknown[]): void {
    this.#log("fatal", args);
  }

  error(...args: unknown[]): void {
    this.#log("error", args);
  }

  warn(...args: unknown[]): void {
    this.#log("warn", args);
  }

  info(...args: unknown[]): void {
    this.#log("info", args);
  }

  debug(...args: unknown[]): void {
    this.#log("debug", args);
  }

  trace(...args: unknown[]): void {
    this.#log("trace", args);
  }

  silent(): void {}

  child(bindings: Record<string, unknown>, options?: object): FastifyBaseLogger {
    return this.#made().child(bindings, options);
  }

  isLevelEnabled(level: string): boolean {
    return (this.#child ?? this.#parent).isLevelEnabled(level);
  }
}

/** Fastify's `childLoggerFactory`: the request's logger, made on first use (a pino parent). */
export function requestLogger(
  parent: FastifyBaseLogger,
  bindings: Record<string, unknown>,
  options: object,
): FastifyBaseLogger {
  const pino = parent as Partial<PinoLogger>;
  if (typeof pino.isLevelEnabled !== "function") return parent.child(bindings, options);
  return new RequestLogger(parent as PinoLogger, bindings, options) as unknown as FastifyBaseLogger;
}
