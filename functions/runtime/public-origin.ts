/** The site's origin from its configured value: an http(s) URL, without a trailing slash. */
export function publicOriginOf(value: string): string {
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error(`Adresse publique du site invalide : ${value}`);
  return url.origin;
}
