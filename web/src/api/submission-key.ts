import { useRef } from 'react';

/**
 * The Idempotency-Key of a form's create: one per content submitted, kept while the form is open,
 * so sending the same content again (after an error, a lost reply, a double click) creates it
 * once; changed content is a new submission with a new key.
 */
export function useSubmissionKey(): (content: unknown) => string {
  const last = useRef<{ readonly content: string; readonly key: string } | null>(null);
  return (content) => {
    const text = JSON.stringify(content);
    if (last.current?.content !== text) last.current = { content: text, key: crypto.randomUUID() };
    return last.current.key;
  };
}
