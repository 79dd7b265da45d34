import type { DocumentSection } from '../../components/document-sections';
import { STRINGS } from '../../strings';

/** Title of the discover page. */
export const DISCOVER_TITLE = `${STRINGS.product.name}, c'est quoi ?`;

/** Short introduction under the title. */
export const DISCOVER_INTRODUCTION =
  "Un assistant d'automatisation par intelligence artificielle, pensé pour les avocats et les notaires.";

/** The sections of the discover page (spec §1 and §2), in their order. */
export const DISCOVER_SECTIONS: readonly DocumentSection[] = [
  {
    id: 'what-it-is',
    title: "Qu'est-ce que c'est ?",
    blocks: [
      {
        paragraph:
          "L'Assistant IA Juridique prend en charge le travail administratif qui entoure chaque dossier client, " +
          "du premier e-mail jusqu'au dossier complet. Il est conçu pour les professionnels du droit : avocats et notaires.",
      },
      {
        paragraph:
          'Il traite les e-mails envoyés à une adresse dédiée, constitue votre base de clients et crée pour chacun ' +
          'un dossier structuré dans votre espace Google Drive.',
      },
    ],
  },
  {
    id: 'how-it-works',
    title: 'Comment ça fonctionne ?',
    blocks: [
      {
        paragraph:
          "Les automatisations s'exécutent sous forme de workflows sur un moteur d'automatisation auto-hébergé, " +
          'connecté à votre compte Google : Gmail, Drive, Sheets et Agenda. Chaque workflow est déclenché par un ' +
          'webhook, à la demande ou selon une planification.',
      },
      {
        paragraph:
          'Notre équipe réalise la mise en place en quelques heures : création de vos automatisations, connexion ' +
          'à votre compte Google et vérification avec un client test.',
      },
    ],
  },
  {
    id: 'documents',
    title: 'Gestion des documents',
    blocks: [
      { paragraph: "Chaque pièce reçue est prise en charge sans que vous ayez à l'ouvrir :" },
      {
        list: [
          'analyse du document et renommage explicite ;',
          'conversion en PDF de chaque document classé ;',
          'classement dans le dossier du client, sous-dossier « Pièces » ;',
          "fichier de synthèse par client, avec les métadonnées juridiques de l'affaire.",
        ],
      },
    ],
  },
  {
    id: 'calendar',
    title: "Gestion de l'agenda",
    blocks: [
      {
        paragraph:
          "Les dates d'audience sont ajoutées automatiquement à votre agenda Google. L'avancement de chaque affaire " +
          'est suivi au regard de la liste des pièces attendues pour son type.',
      },
    ],
  },
  {
    id: 'follow-up',
    title: 'Relances autonomes',
    blocks: [
      {
        paragraph:
          "L'assistant relance vos clients par e-mail pour obtenir les informations et les pièces manquantes, " +
          'à la fréquence que vous choisissez.',
      },
      {
        paragraph:
          'Il répond aux questions fréquentes à partir de votre base de connaissances personnalisée, tenue dans un ' +
          "simple tableur. Toute question qui en sort est redirigée vers l'adresse e-mail principale du cabinet, " +
          'pour être traitée par un humain.',
      },
    ],
  },
  {
    id: 'involvement',
    title: 'Votre implication',
    blocks: [
      { paragraph: 'Votre rôle reste essentiel, mais il devient léger :' },
      {
        list: [
          'créer une adresse Gmail dédiée, sans double authentification, avec un mot de passe fort et unique ;',
          "tenir à jour vos tableurs : clients, pièces à fournir par type d'affaire, questions fréquentes ;",
          'respecter exactement les noms des dossiers et des feuilles ;',
          'ne pas ouvrir les e-mails traités, ni renommer, supprimer ou déplacer les fichiers du Drive ' +
            '(vous pouvez les télécharger).',
        ],
      },
    ],
  },
  {
    id: 'result',
    title: 'Le résultat',
    blocks: [
      {
        paragraph:
          'Des dossiers clients complets et à jour, des clients informés et relancés sans effort, un agenda fiable : ' +
          'vous retrouvez chaque semaine les heures que prenaient les tâches répétitives.',
      },
    ],
  },
  {
    id: 'vision',
    title: 'Notre vision',
    blocks: [
      {
        paragraph:
          'Libérer les professionnels du droit des tâches administratives pour qu’ils se consacrent à ce qui fait ' +
          'leur valeur : le conseil, la stratégie et la relation avec leurs clients. L’intelligence artificielle ' +
          'reste un outil à votre service, sous votre contrôle.',
      },
    ],
  },
  {
    id: 'confidentiality',
    title: 'Confidentialité',
    blocks: [
      {
        paragraph:
          'La solution est auto-hébergée et conforme au RGPD. Vos données et celles de vos clients restent dans ' +
          "votre propre compte Google et ne servent qu'à vous rendre le service.",
      },
    ],
  },
];
