import type { DocumentSection } from '../document-sections';

/**
 * The Google ecosystem guides (spec §2, §3 "User-supplied spreadsheet and drive conventions", §5
 * user guidance). The lawyer and notary guides share the conventions; their notices differ slightly.
 */
const ACCOUNT: DocumentSection = {
  id: 'account',
  title: '1. Le compte Google dédié',
  blocks: [
    {
      list: [
        "Créez une nouvelle adresse Gmail réservée à l'assistant : n'utilisez pas une adresse existante.",
        'Désactivez la double authentification sur ce compte.',
        'Choisissez un mot de passe fort et unique, utilisé nulle part ailleurs.',
      ],
    },
  ],
};

const DRIVE: DocumentSection = {
  id: 'drive',
  title: '2. Les dossiers du Drive',
  blocks: [
    {
      paragraph:
        'Créez dans le Drive les dossiers suivants, nommés exactement ainsi (sans majuscule ni accent en plus) :',
    },
    { list: ['Dossier', 'Dossier Clients', 'Non pdf'] },
    {
      paragraph:
        "L'assistant crée un dossier par client dans « Dossier Clients », avec un sous-dossier « Pièces » où il " +
        'classe les pièces analysées, renommées et converties en PDF, et un fichier texte de synthèse avec les métadonnées juridiques.',
    },
  ],
};

const SHEETS: DocumentSection = {
  id: 'sheets',
  title: '3. Les feuilles de calcul',
  blocks: [
    {
      paragraph:
        'Feuille « Clients », onglet « Fiche Clients », colonnes A à G : Nom, Prénom, Adresse mail, Type Affaire, ' +
        'Fichier complet, Mail pièces, Mail client. La ligne 2 doit contenir un client de test (valeurs de test, « oui » dans les trois dernières colonnes).',
    },
    {
      paragraph:
        'Un tiret dans la colonne « Mail pièces » désactive les relances pour ce client. La date d’audience et la juridiction ' +
        'de chaque client y sont suivies pour l’agenda.',
    },
    { paragraph: 'Feuille « Base de données FAQ » : Question fréquente, Réponse de l’IA.' },
  ],
};

const CALENDAR: DocumentSection = {
  id: 'calendar',
  title: '4. L’agenda',
  blocks: [
    {
      paragraph:
        "Les dates d'audience sont ajoutées à l'agenda Google du compte dédié ; modifiez ou supprimez un événement " +
        "directement dans l'agenda si une audience change.",
    },
  ],
};

/** What the user must and must not do once the automations run (spec §5). */
/** The sheets section with the role's own database sheet after the common text. */
const sheets = (databaseSheet: string): DocumentSection => ({
  ...SHEETS,
  blocks: [...SHEETS.blocks, { paragraph: databaseSheet }],
});

const rules = (extra: string): DocumentSection => ({
  id: 'rules',
  title: '5. Les règles à respecter',
  blocks: [
    {
      list: [
        "N'ouvrez pas les e-mails traités par l'assistant dans la boîte du compte dédié.",
        'Ne renommez pas, ne supprimez pas et ne déplacez pas les fichiers du Drive gérés par l’assistant.',
        'Vous pouvez télécharger les fichiers, et ajouter des documents dans le dossier d’un client en dehors de « Pièces ».',
        extra,
      ],
    },
  ],
});

/** The lawyer's guide (/lawyer/google-ecosystem): database sheet 'Base de données Avocat'. */
export const LAWYER_GUIDE: readonly DocumentSection[] = [
  ACCOUNT,
  DRIVE,
  sheets(
    'Feuille « Base de données Avocat » : Type affaire, Pièces obligatoires à fournir par le client. ' +
      "La feuille « Pièces à fournir » suit l'avancement de chaque dossier au regard de cette liste.",
  ),
  CALENDAR,
  rules(
    'Toute question hors de la base FAQ est redirigée vers l’adresse principale du cabinet pour un traitement humain.',
  ),
];

/** The notary's guide (/notary/google-ecosystem): database sheet 'Base de données Notaire'. */
export const NOTARY_GUIDE: readonly DocumentSection[] = [
  ACCOUNT,
  DRIVE,
  sheets('Feuille « Base de données Notaire » : Type affaire, Pièces obligatoires à fournir par le client.'),
  CALENDAR,
  rules('Ne déplacez pas les pièces jointes des e-mails reçus : l’assistant les récupère lui-même.'),
];
