import { EMAIL_MESSAGES } from '../../../shared/email-messages';
import type { MailMessage } from '../core/ports';

const TEXTS = EMAIL_MESSAGES;

/** French date and time of the lock, in the firm's time zone. */
const frenchDateTime = (date: Date) =>
  new Intl.DateTimeFormat('fr-FR', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'Europe/Paris',
  }).format(date);

/**
 * To a licence's owner when wrong codes locked its second factor for browsers not remembered:
 * what happened, that his remembered browsers still work, and how to change the key.
 */
export function codesLockedEmail(input: {
  readonly to: string;
  readonly wrongCodes: number;
  readonly at: Date;
  readonly minutes: number;
  readonly admin: boolean;
}): MailMessage {
  const texts = TEXTS.codesLocked;
  return {
    to: input.to,
    subject: texts.subject,
    text: [
      TEXTS.greeting,
      texts.happened(input.wrongCodes, frenchDateTime(input.at), input.minutes),
      texts.rememberedUnaffected,
      [texts.keyKnown, input.admin ? texts.changeKeyAdmin : texts.changeKeyMember].join(' '),
      TEXTS.signOff.join('\n'),
    ].join('\n\n'),
  };
}
