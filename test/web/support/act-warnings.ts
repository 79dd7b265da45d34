/*
 * React's act(...) warnings mean a test moved on while a component was still updating (an update
 * it did not wait for) or drove the component from inside a check: the test then reads a screen
 * the user would not see. The test that logged one fails; the message is still printed.
 */
import { format } from 'node:util';

const ACT_WARNING = /\bact\(|`act`/;
const WATCHED = Symbol('act warnings watched');

const logged: string[] = [];

/** Notes each act warning React logs; once per worker, not once more for each file that shares it. */
export function watchActWarnings(): void {
  if (WATCHED in console.error) return;
  const realError = console.error;
  console.error = Object.assign(
    (...args: unknown[]) => {
      const text = format(...args);
      if (ACT_WARNING.test(text)) logged.push(text);
      realError.apply(console, args);
    },
    { [WATCHED]: true },
  );
}

/** Throws, failing the running test or hook, when React logged an act warning since the last call. */
export function failOnActWarnings(): void {
  const warnings = logged.splice(0);
  if (warnings.length > 0) {
    throw new Error(`${warnings.length} avertissement(s) act(...) de React, dont :\n${warnings[0]}`);
  }
}
