import type { Page } from 'playwright-core';

/** The login page, driven as a user would: by labels and button names. */
export class LoginPage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.goto('/login');
    await this.page.getByLabel('Clé de licence').waitFor();
  }

  async signIn(licenseKey: string) {
    await this.page.getByLabel('Clé de licence').fill(licenseKey);
    await this.page.getByRole('button', { name: 'Se connecter', exact: true }).click();
  }
}
