/**
 * The provider of the product as the public pages name it. Its legal details are deployment
 * settings (`runtimeConfig().legal`), not constants.
 */
export const PROVIDER = {
  /** Shown after 'Propulsé par' on the login card. */
  name: 'Lexflow',
  contactUrl: 'https://lexflow.fr/contact',
  videoDemosUrl: 'https://lexflow.fr/demos',
} as const;
