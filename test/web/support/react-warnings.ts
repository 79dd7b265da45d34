/*
 * React's act(...) warnings mean a test moved on while a component was still updating (an update
 * it did not wait for) or drove the component from inside a check: the test then reads a screen
 * the user would not see. Its hydration notice means the pre-rendered markup was changed before
 * the application took it over (attributes React did not render). The test that logged one fails;
 * the message is still printed.
 */
import { format } from 'node:util';

const WARNINGS = [
  { pattern: /\bact\(|`act`/, name: 'avertissement(s) act(...) de React' },
  {
    pattern: /attributes of the server rendered HTML didn't match the client properties/,
    name: "avis d'hydratation de React (attributs du HTML pré-rendu qu'il n'a pas rendus)",
  },
];
const WATCHED = Symbol('React warnings watched');

const logged: { name: string; text: string }[] = [];

/** Notes each of these warnings React logs; once per worker, not once more for each file that shares it. */
export function watchReactWarnings(): void {
  if (WATCHED in console.error) return;
  const realError = console.error;
  console.error = Object.assign(
    (...args: unknown[]) => {
      const text = format(...args);
      const warning = WARNINGS.find(({ pattern }) => pattern.test(text));
      if (warning) logged.push({ name: warning.name, text });
      realError.apply(console, args);
    },
    { [WATCHED]: true },
  );
}

/** Throws, failing the running test or hook, when React logged one of these warnings since the last call. */
export function failOnReactWarnings(): void {
  const warnings = logged.splice(0);
  const first = warnings[0];
  if (first) throw new Error(`${warnings.length} ${first.name}, dont :\n${first.text}`);
}
