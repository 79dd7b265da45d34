import type { LegalDetails } from '../../../../shared';
import { RETENTION_DAYS } from '../../../../shared';
import { hostingRegionLabel } from '../../../../shared/prerender-slots';
import type { DocumentSection } from '../../components/document-sections';
import { PRICES } from '../../config/prices';

/**
 * The sections of the privacy policy (spec §2, 1 to 8), with where the data lives, who processes
 * it for us and for how long (9 and 10, and the retention details of 8).
 */
export const privacySections = (hostingRegion: string, company: LegalDetails): readonly DocumentSection[] => [
  {
    id: 'purpose',
    title: '1. Objet',
    blocks: [
      {
        paragraph:
          `La présente politique décrit la manière dont ${company.name}, éditeur de l'Assistant IA Juridique, ` +
          "traite les données personnelles des utilisateurs de l'application (avocats, notaires et administrateurs) " +
          'ainsi que celles de leurs clients traitées par les automatisations.',
      },
    ],
  },
  {
    id: 'hosting',
    title: '2. Hébergement et sécurité',
    blocks: [
      {
        paragraph:
          "La solution est auto-hébergée : les automatisations s'exécutent sur un moteur d'automatisation que nous " +
          'opérons nous-mêmes, et non sur une plateforme tierce mutualisée. Les documents et les informations de ' +
          'vos clients restent dans votre compte Google (Gmail, Drive, Sheets, Agenda).',
      },
      {
        paragraph:
          'Les échanges sont chiffrés. Les mots de passe et identifiants Google sont conservés chiffrés, dans un ' +
          'coffre-fort de secrets réservé aux personnes habilitées, et ne figurent jamais dans les journaux.',
      },
      {
        paragraph:
          `Les données de l'application (licences, profils, automatisations, historiques, journal d'audit) sont ` +
          `hébergées chez Amazon Web Services dans la région ${hostingRegionLabel(hostingRegion)}, chiffrées au ` +
          'repos et en transit. Elles ne sont ni copiées ni sauvegardées dans une autre région.',
      },
    ],
  },
  {
    id: 'authentication',
    title: '3. Authentification, contrat et paiement',
    blocks: [
      {
        paragraph:
          "L'accès à l'application se fait au moyen d'une clé de licence personnelle, envoyée par e-mail après le " +
          'paiement. Cette clé est confidentielle : ne la communiquez à personne.',
      },
      {
        paragraph:
          'Le paiement est réalisé par carte bancaire auprès d’un prestataire de paiement sécurisé ; nous ne ' +
          `conservons aucune donnée de carte. L'accès comprend un paiement initial de ${PRICES.initial} TTC ` +
          `puis un abonnement mensuel de ${PRICES.monthly} TTC, prélevé automatiquement chaque mois ` +
          `(${PRICES.vatNotice}).`,
      },
      {
        paragraph:
          'En cas de défaut de paiement, la licence est automatiquement désactivée et l’accès suspendu. ' +
          "L'abonnement est sans engagement : vous pouvez le résilier à tout moment depuis l'application ; la " +
          'résiliation prend effet à la fin de la période mensuelle payée.',
      },
    ],
  },
  {
    id: 'confidentiality',
    title: '4. Engagement de confidentialité',
    blocks: [
      {
        paragraph:
          'Nous n’accédons au contenu de vos dossiers que dans la mesure strictement nécessaire à la mise en ' +
          'place, à la maintenance et au support du service. Vos données ne sont ni vendues, ni louées, ni ' +
          "utilisées à d'autres fins que la fourniture du service. Nos équipes sont tenues à la confidentialité, " +
          'dans le respect du secret professionnel auquel vous êtes soumis.',
      },
    ],
  },
  {
    id: 'responsibilities',
    title: '5. Responsabilités',
    blocks: [
      {
        paragraph:
          'Pour les données de vos clients, vous êtes responsable du traitement et nous agissons en qualité de ' +
          "sous-traitant au sens de l'article 28 du RGPD. Il vous appartient d'informer vos clients du traitement " +
          'de leurs données.',
      },
      {
        paragraph:
          'Vous êtes responsable de la sécurité de votre compte Google dédié et de votre clé de licence, ainsi que ' +
          "du respect des consignes d'utilisation. Nous sommes responsables de la sécurité et de la disponibilité " +
          'de la plateforme que nous opérons.',
      },
    ],
  },
  {
    id: 'legal-basis',
    title: '6. Base légale',
    blocks: [
      {
        paragraph:
          "Les traitements reposent sur l'exécution du contrat qui nous lie (article 6.1.b du RGPD) : fourniture " +
          'du service, facturation et support. La connexion de votre compte Google aux automatisations repose sur ' +
          'votre consentement explicite (article 6.1.a du RGPD), que vous pouvez retirer à tout moment.',
      },
    ],
  },
  {
    id: 'rights',
    title: '7. Droits des utilisateurs',
    blocks: [
      { paragraph: 'Conformément au RGPD, vous disposez sur vos données des droits suivants :' },
      {
        list: [
          "droit d'accès ;",
          'droit de rectification ;',
          "droit à l'effacement ;",
          'droit à la limitation du traitement ;',
          "droit d'opposition ;",
          'droit à la portabilité.',
        ],
      },
      {
        paragraph:
          `Pour les exercer, écrivez-nous à ${company.contactEmail}. Vous pouvez également introduire une ` +
          "réclamation auprès de la Commission nationale de l'informatique et des libertés (CNIL), www.cnil.fr.",
      },
    ],
  },
  {
    id: 'retention',
    title: '8. Conservation des données',
    blocks: [
      {
        list: [
          `journaux techniques et données temporaires : supprimés sous ${RETENTION_DAYS.technicalData} jours ;`,
          "données du compte : conservées pendant toute la durée de l'abonnement, puis " +
            `${RETENTION_DAYS.afterCancellation} jours après la résiliation ;`,
          `données contractuelles et de facturation : ${RETENTION_DAYS.billingYears} ans, conformément à nos ` +
            'obligations légales.',
        ],
      },
      {
        paragraph: 'Dans le détail :',
      },
      {
        list: [
          'sessions de connexion : 12 heures au plus (10 minutes pour une connexion en attente de la ' +
            'vérification en deux étapes), supprimées à la déconnexion ;',
          "compteurs de tentatives de connexion : 15 minutes (adresses IP conservées uniquement sous forme d'empreinte) ;",
          `historique d'exécution des automatisations : ${RETENTION_DAYS.technicalData} jours ;`,
          `journaux techniques de l'API et du site : ${RETENTION_DAYS.technicalData} jours ;`,
          `journal d'audit des actions des administrateurs : ${RETENTION_DAYS.billingYears} ans ;`,
          `données de facturation (paiements, abonnements) : ${RETENTION_DAYS.billingYears} ans ;`,
          `profil, automatisations, identifiants Google et licence d'un cabinet : supprimés ` +
            `${RETENTION_DAYS.afterCancellation} jours après la résiliation ;`,
          'vérification en deux étapes (clés d’accès, secret chiffré, codes de secours sous forme d’empreinte) : ' +
            'jusqu’à sa réinitialisation ou la suppression de la licence.',
        ],
      },
    ],
  },
  {
    id: 'sub-processors',
    title: '9. Sous-traitants et destinataires',
    blocks: [
      {
        list: [
          `Amazon Web Services (région ${hostingRegionLabel(hostingRegion)}) : héberge l'application et reçoit ` +
            'toutes ses données : licences, profils (nom, e-mails, téléphone, étude), identifiants Google ' +
            "(chiffrés), automatisations et leurs historiques, journal d'audit ; envoie les e-mails de licence.",
          'Stripe (Stripe Payments Europe, Irlande) : encaisse les paiements ; reçoit l’e-mail de l’acheteur et ' +
            'les données de carte, saisies directement chez Stripe, que nous ne voyons jamais.',
          'Le compte Google de votre cabinet : vos e-mails, documents, tableurs et agenda y restent ; ' +
            "l'application s'y connecte avec les identifiants que vous lui confiez.",
          "Le moteur d'automatisation (n8n) de votre cabinet : reçoit les déclenchements des automatisations " +
            '(identifiant, date, origine), signés, et traite les données de vos clients dans votre compte Google.',
        ],
      },
      {
        paragraph:
          'Nous ne vendons aucune donnée et ne faisons appel à aucun autre sous-traitant. Les identifiants, clés ' +
          'de licence et codes ne figurent jamais dans les journaux.',
      },
    ],
  },
  {
    id: 'dpa',
    title: '10. Accord de traitement des données',
    blocks: [
      {
        paragraph:
          'Pour les données de vos clients, vous êtes responsable du traitement et nous agissons comme ' +
          "sous-traitant (article 28 du RGPD). Pour conclure l'accord de traitement des données (DPA), écrivez " +
          `à ${company.contactEmail} en indiquant le nom de votre cabinet (jamais votre clé de licence) : ` +
          "nous vous adressons l'accord à signer, avec la liste des sous-traitants ci-dessus.",
      },
    ],
  },
];
