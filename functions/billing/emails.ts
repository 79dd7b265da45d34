import { PRICING, RETENTION_DAYS } from '../../shared/constants';
import type { MailMessage } from './mailer';

/**
 * The billing e-mails, in French. They carry the firm's own licence key and nothing else that is
 * secret: no link that signs in, no payment detail.
 */

const PRODUCT = 'Assistant IA juridique';

const euros = (cents: number) =>
  new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' }).format(cents / 100);

/** French long date (spec §9), in the firm's time zone. */
export const frenchLongDate = (date: Date) =>
  new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeZone: 'Europe/Paris' }).format(date);

/** The licence key after payment. */
export function licenseKeyEmail(input: { to: string; licenseKey: string; loginUrl: string }): MailMessage {
  return {
    to: input.to,
    subject: `${PRODUCT} : votre clé de licence`,
    text: [
      'Bonjour,',
      '',
      `Merci pour votre achat. Votre paiement a bien été reçu et votre licence ${PRODUCT} est activée.`,
      '',
      `Votre clé de licence : ${input.licenseKey}`,
      '',
      `Pour vous connecter, saisissez cette clé sur la page de connexion : ${input.loginUrl}`,
      '',
      'Conservez-la précieusement et ne la communiquez à personne : elle donne accès à votre espace.',
      '',
      `Votre abonnement : ${euros(PRICING.initialPaymentCents)} TTC à l'achat, puis ${euros(PRICING.monthlySubscriptionCents)} TTC par mois, prélevés automatiquement. ${PRICING.vatNotice}.`,
      "Sans engagement : vous pouvez résilier à tout moment depuis l'application (Paramètres, Gestion de l'abonnement).",
      '',
      'Cordialement,',
      `L'équipe ${PRODUCT}`,
    ].join('\n'),
  };
}

/** The confirmation of a cancellation (spec §4), with the date the firm's data will be deleted. */
export function cancellationEmail(input: { to: string; canceledAt: Date; purgeAfter: Date }): MailMessage {
  return {
    to: input.to,
    subject: `${PRODUCT} : confirmation de résiliation de votre abonnement`,
    text: [
      'Bonjour,',
      '',
      `Nous confirmons la résiliation de votre abonnement ${PRODUCT} le ${frenchLongDate(input.canceledAt)}.`,
      'La résiliation prend effet immédiatement : votre licence est désactivée et aucun prélèvement ne sera plus effectué.',
      '',
      `Vos données seront conservées ${RETENTION_DAYS.afterCancellation} jours, puis supprimées à partir du ${frenchLongDate(input.purgeAfter)}.`,
      `Les données contractuelles et de facturation sont conservées ${RETENTION_DAYS.billingYears} ans, comme la loi l'exige.`,
      '',
      "Pour réactiver votre abonnement, contactez le support ou passez par le portail de gestion de l'abonnement.",
      '',
      'Cordialement,',
      `L'équipe ${PRODUCT}`,
    ].join('\n'),
  };
}
