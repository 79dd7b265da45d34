import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { EXAMPLE_LEGAL_DETAILS } from '../../shared/legal-details';
import { DEFAULT_RUNTIME_CONFIG, setRuntimeConfig } from '../../web/src/config/runtime-config';
import { mockNetwork } from './support/fetch-mock';
import { renderApp } from './support/render-app';

afterEach(() => setRuntimeConfig(DEFAULT_RUNTIME_CONFIG));

describe("/privacy names the publisher from the deployment's settings", () => {
  it('shows the legal details the deployment gives: name, form, registration, address, e-mail, director', async () => {
    // Arrange
    setRuntimeConfig({
      ...DEFAULT_RUNTIME_CONFIG,
      legal: {
        name: 'Lexflow',
        legalForm: 'SAS au capital de 10 000 €',
        registration: 'RCS Paris 912 345 678',
        postalAddress: '12 rue de la Paix, 75002 Paris, France',
        contactEmail: 'contact@lexflow.example',
        publicationDirector: 'Claire Martin, présidente',
      },
    });
    mockNetwork();

    // Act
    renderApp('/privacy');

    // Assert
    await screen.findByText('Lexflow, SAS au capital de 10 000 €, RCS Paris 912 345 678');
    expect(screen.getByText('12 rue de la Paix, 75002 Paris, France')).toBeVisible();
    expect(screen.getByText('Claire Martin, présidente')).toBeVisible();
    expect(screen.getByRole('link', { name: 'contact@lexflow.example' }).getAttribute('href')).toBe(
      'mailto:contact@lexflow.example',
    );
    expect(screen.queryByText(/Exemple — /)).toBeNull();
  });

  it("shows the example values, each marked 'Exemple — …', when the deployment gives none", async () => {
    // Arrange
    mockNetwork();

    // Act
    renderApp('/privacy');

    // Assert
    await screen.findByText(
      `${EXAMPLE_LEGAL_DETAILS.name}, ${EXAMPLE_LEGAL_DETAILS.legalForm}, ${EXAMPLE_LEGAL_DETAILS.registration}`,
    );
    expect(screen.getByText(EXAMPLE_LEGAL_DETAILS.publicationDirector)).toBeVisible();
  });
});
