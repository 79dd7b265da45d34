/** Cloudscape's French messages of the entry's components, built by web/build/cloudscape-french.ts. */
declare module 'virtual:cloudscape-french/first-screen' {
  import type { I18nProviderProps } from '@cloudscape-design/components/i18n';

  const messages: I18nProviderProps.Messages;
  export default messages;
}
