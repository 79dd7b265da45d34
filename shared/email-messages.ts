/**
 * The billing e-mails (plain text): the licence key after payment and the confirmation of a
 * cancellation (spec §4). Ours, in the product's voice; they carry the firm's own licence key
 * and nothing else that is secret.
 * Apart from `MESSAGES` so that /login's bundle, which carries that catalogue, does not carry these.
 */
export const EMAIL_MESSAGES = {
  greeting: 'Bonjour,',
  signOff: ['Cordialement,', "L'équipe Assistant IA juridique"],
  licenseKey: {
    subject: 'Assistant IA juridique : votre clé de licence',
    paid: (total: string, initial: string, monthly: string) =>
      `Merci pour votre achat. Votre paiement de ${total} TTC (licence ${initial} + premier mois ${monthly}) a bien été reçu et votre licence Assistant IA juridique est activée.`,
    free: "Merci pour votre achat. Votre code promo couvre votre premier paiement : rien n'a été prélevé aujourd'hui, et votre licence Assistant IA juridique est activée.",
    key: (licenseKey: string) => `Votre clé de licence : ${licenseKey}`,
    signIn: (loginUrl: string) =>
      `Pour vous connecter, saisissez cette clé sur la page de connexion : ${loginUrl}`,
    keepSafe: 'Conservez-la précieusement et ne la communiquez à personne : elle donne accès à votre espace.',
    pricing: (monthly: string, vatNotice: string) =>
      `Votre abonnement : ${monthly} TTC par mois, prélevés automatiquement chaque mois à la date anniversaire de votre achat. ${vatNotice}.`,
    noCommitment:
      "Sans engagement : vous pouvez résilier à tout moment depuis l'application (Paramètres, Gestion de l'abonnement).",
  },
  /** The key sent again by the admin: no word about a payment. */
  licenseKeyResent: {
    subject: 'Assistant IA juridique : votre clé de licence (nouvel envoi)',
    intro:
      'Voici de nouveau votre clé de licence Assistant IA juridique : notre premier envoi ne vous est peut-être pas parvenu.',
    notExpected: "Si vous n'attendiez pas cet e-mail, répondez-y pour prévenir le support.",
  },
  cancellationScheduled: {
    subject: 'Assistant IA juridique : confirmation de résiliation de votre abonnement',
    confirmed: (accessUntil: string) =>
      `Nous confirmons la résiliation de votre abonnement Assistant IA juridique. Elle prend effet à la fin de la période mensuelle payée : vous gardez l'accès à votre espace jusqu'au ${accessUntil}.`,
    noDebit: 'Aucun prélèvement ne sera plus effectué.',
    retention: (days: number, purgeOn: string) =>
      `À la fin de votre accès, vos données seront conservées ${days} jours, puis supprimées à partir du ${purgeOn}.`,
    reactivate: (accessUntil: string) =>
      `Vous avez changé d'avis ? Jusqu'au ${accessUntil}, réactivez votre abonnement en un clic depuis l'application (Paramètres, Gestion de l'abonnement, « Réactiver l'abonnement »).`,
  },
  cancellation: {
    subject: 'Assistant IA juridique : fin de votre abonnement',
    confirmed: (canceledOn: string) => `Votre abonnement Assistant IA juridique a pris fin le ${canceledOn}.`,
    immediate: 'Votre licence est désactivée et aucun prélèvement ne sera plus effectué.',
    retention: (days: number, purgeOn: string) =>
      `Vos données seront conservées ${days} jours, puis supprimées à partir du ${purgeOn}.`,
    billingRetention: (years: number) =>
      `Les données contractuelles et de facturation sont conservées ${years} ans, comme la loi l'exige.`,
    reactivate:
      // Said as it works: a cancelled licence cannot sign in, so the portal inside the app is out of reach.
      "Pour réactiver votre abonnement, répondez à cet e-mail ou contactez le support : nous réactivons votre licence et vos données, tant qu'elles sont conservées.",
    // The portal reached without signing in: a link e-mailed to the billing address.
    portal:
      'Pour consulter vos factures ou gérer votre abonnement, choisissez « Gérer mon abonnement » sur la page de connexion : un lien vers le portail client vous sera envoyé à cette adresse.',
  },
  /** To a licence's owner when wrong codes lock its second factor for browsers not remembered. */
  codesLocked: {
    subject: 'Assistant IA juridique : codes de vérification bloqués sur votre licence',
    happened: (count: number, at: string, minutes: number) =>
      `${count} codes de vérification erronés ont été saisis pour votre licence (dernier le ${at}), depuis des navigateurs que vous n'avez pas fait reconnaître. Les codes venant de ces navigateurs sont refusés pendant ${minutes} minutes.`,
    rememberedUnaffected:
      'Vos navigateurs reconnus (ceux où vous avez déjà saisi votre second facteur) ne sont pas concernés : vous pouvez vous y connecter normalement.',
    keyKnown:
      "Ces codes ne peuvent être saisis qu'après la clé de licence : si ce n'était pas vous, quelqu'un d'autre la connaît.",
    changeKeyMember:
      "Pour changer de clé de licence, répondez à cet e-mail ou écrivez au support : l'équipe Assistant IA juridique vous en attribue une nouvelle (Avocats, votre fiche, champ « Clé de licence »).",
    changeKeyAdmin:
      'Pour changer de clé de licence administrateur, émettez-en une nouvelle avec la commande npx tsx bin/create-admin-licence.ts (docs/operations.md) et ne vous servez plus de l’ancienne.',
  },
  portalLink: {
    subject: 'Assistant IA juridique : gérer votre abonnement',
    intro: "Vous avez demandé à gérer l'abonnement associé à cette adresse.",
    link: (url: string) =>
      `Ce lien ouvre le portail client de Stripe (factures, moyen de paiement, abonnement) ; il expire rapidement :\n${url}`,
    notYou: "Si vous n'êtes pas à l'origine de cette demande, ignorez cet e-mail.",
  },
};
