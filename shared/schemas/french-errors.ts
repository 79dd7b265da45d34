import type { z } from 'zod';

import { MESSAGES } from '../messages';

/**
 * The default French validation messages: they name the field and agree with it ('Le champ
 * workflowId est requis', 'Le champ email doit être une chaîne de caractères'). A schema's own
 * message (the spec's catalogue, `MESSAGES`) always wins over these; these cover every issue code
 * zod can raise, so no zod locale is bundled.
 */

type Issue = z.core.$ZodRawIssue;

/** 'workflowId', 'payload.source', 'tags[0]': the field as a client developer names it. */
function fieldName(path: readonly PropertyKey[]): string {
  return path
    .map((segment, index) =>
      typeof segment === 'number' ? `[${segment}]` : `${index === 0 ? '' : '.'}${String(segment)}`,
    )
    .join('');
}

const TYPE_NOUNS: Record<string, string> = {
  string: 'une chaîne de caractères',
  number: 'un nombre',
  int: 'un nombre entier',
  bigint: 'un nombre entier',
  boolean: 'un booléen',
  object: 'un objet',
  array: 'une liste',
  date: 'une date',
  null: 'null',
  literal: 'une valeur précise',
};

const FORMAT_NOUNS: Record<string, string> = {
  email: 'une adresse e-mail valide',
  url: 'une URL valide',
  uuid: 'un identifiant valide',
  guid: 'un identifiant valide',
  datetime: 'une date et heure ISO 8601',
  date: 'une date ISO 8601',
  time: 'une heure ISO 8601',
};

const plural = (count: number | bigint, singular: string, pluralForm: string) =>
  `${count} ${Number(count) > 1 ? pluralForm : singular}`;

const shown = (value: unknown) => (typeof value === 'string' ? `'${value}'` : String(value));

/** What a field must be or contain, for one issue: the end of 'Le champ X …'. */
function predicate(issue: Issue): string {
  // Missing altogether, whatever it should have been (a string, one of an enum's values…).
  if (
    issue.input === undefined &&
    ['invalid_type', 'invalid_value', 'invalid_union'].includes(issue.code ?? '')
  ) {
    return 'est requis';
  }
  switch (issue.code) {
    case 'invalid_type':
      return `doit être ${TYPE_NOUNS[issue.expected] ?? `de type ${issue.expected}`}`;
    case 'too_small': {
      const minimum = issue.minimum as number | bigint;
      if (issue.origin === 'string')
        return Number(minimum) <= 1
          ? 'ne doit pas être vide'
          : `doit contenir au moins ${plural(minimum, 'caractère', 'caractères')}`;
      if (issue.origin === 'array' || issue.origin === 'set')
        return `doit contenir au moins ${plural(minimum, 'élément', 'éléments')}`;
      return `doit être supérieur ${issue.inclusive ? 'ou égal ' : ''}à ${minimum}`;
    }
    case 'too_big': {
      const maximum = issue.maximum as number | bigint;
      if (issue.origin === 'string')
        return `doit contenir au plus ${plural(maximum, 'caractère', 'caractères')}`;
      if (issue.origin === 'array' || issue.origin === 'set')
        return `doit contenir au plus ${plural(maximum, 'élément', 'éléments')}`;
      return `doit être inférieur ${issue.inclusive ? 'ou égal ' : ''}à ${maximum}`;
    }
    case 'invalid_format':
      return FORMAT_NOUNS[issue.format]
        ? `doit être ${FORMAT_NOUNS[issue.format]}`
        : "n'est pas au bon format";
    case 'not_multiple_of':
      return `doit être un multiple de ${issue.divisor}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `doit valoir ${shown(issue.values[0])}`
        : `doit être l'une des valeurs ${issue.values.map(shown).join(', ')}`;
    case 'invalid_key':
      return 'contient une clé invalide';
    case 'invalid_element':
      return 'contient un élément invalide';
    default:
      return "n'est pas valide";
  }
}

/** The message of one issue zod raises without a message of the schema's own. */
export function frenchIssueMessage(issue: Issue): string {
  const path = issue.path ?? [];
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((key) => fieldName([...path, key]));
    return keys.length === 1
      ? `Le champ ${keys[0]} n'est pas reconnu`
      : `Les champs ${keys.join(', ')} ne sont pas reconnus`;
  }
  if (path.length === 0) {
    // The whole body: feminine, 'la requête'.
    return issue.code === 'invalid_type' ? MESSAGES.request.notJson : MESSAGES.request.invalid;
  }
  return `Le champ ${fieldName(path)} ${predicate(issue)}`;
}
