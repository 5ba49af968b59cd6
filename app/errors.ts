// The one error class every command and the gateway's start-up share, in a module of its own so
// that importing it loads nothing else (app/load.ts pulls in the whole schema loader).

/** An error meant for the person running a command: printed as is, without a stack. */
export class AppError extends Error {}
