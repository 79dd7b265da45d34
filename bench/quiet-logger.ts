import type { Logger } from '../functions/domain/core/ports';

/** A logger that writes nothing: the bench prints its own figures. */
export const quietLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
