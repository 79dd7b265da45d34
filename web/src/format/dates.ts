import { MESSAGES } from '../../../shared';

const SHORT = new Intl.DateTimeFormat('fr-FR', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

const LONG = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'long', year: 'numeric' });

const DATE_ONLY = new Intl.DateTimeFormat('fr-FR', { day: '2-digit', month: '2-digit', year: 'numeric' });

function parse(value: string | Date): Date | undefined {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** French short format (day, month, year, hour, minute; spec §9), or 'Date invalide'. */
export function formatDateTime(value: string | Date): string {
  const date = parse(value);
  return date ? SHORT.format(date) : MESSAGES.dates.invalid;
}

/** French short date without the time (creation dates of cards), or 'Date invalide'. */
export function formatDate(value: string | Date): string {
  const date = parse(value);
  return date ? DATE_ONLY.format(date) : MESSAGES.dates.invalid;
}

/** French long format ('23 novembre 2026'; the subscription page, spec §9), or 'Date invalide'. */
export function formatLongDate(value: string | Date): string {
  const date = parse(value);
  return date ? LONG.format(date) : MESSAGES.dates.invalid;
}
