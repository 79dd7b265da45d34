import { TEST_PROMO } from '../../../../shared';
import { STRINGS } from '../../strings';

/** Texts of 'Code promo test' (/admin/test-promo, spec §2). */
export const TEST_PROMO_TEXT = {
  title: 'Code promo test',
  description: "Créez un code de réduction pour essayer l'achat d'une licence de bout en bout.",
  generator: {
    title: 'Générateur',
    create: 'Créer un code promo à 100 %',
    code: 'Code promo',
    none: 'Aucun code créé pour le moment.',
    percentOff: (percent: number) => `${percent} % de réduction`,
    copy: 'Copier',
    copyLabel: 'Copier le code promo',
  },
  steps: {
    title: 'Utilisation',
    items: [
      'Ouvrez la page de connexion (/login).',
      `Cliquez sur « ${STRINGS.login.getLicense} ».`,
      'Saisissez une adresse e-mail : la clé de licence y sera envoyée.',
      `Saisissez le code dans le champ « ${STRINGS.purchase.promoCodeLabel} ».`,
      'Procédez au paiement : le montant dû est de 0 €, aucune carte ne sera débitée.',
    ],
  },
  warnings: {
    header: 'Attention',
    items: [
      `Ce code offre ${TEST_PROMO.percentOff} % de réduction : le paiement est gratuit.`,
      `Il peut être utilisé ${TEST_PROMO.maxRedemptions} fois au maximum.`,
      'Il fonctionne en production : chaque utilisation crée une vraie licence active. Ne le partagez pas.',
    ],
  },
} as const;
