/** The product logo, served from `web/public`. */
export const LOGO_SRC = '/logo.svg';
