import FormField from '@cloudscape-design/components/form-field';
import Pagination from '@cloudscape-design/components/pagination';
import { act, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { CloudscapeFrench, loadCloudscapeFrench } from '../../web/src/cloudscape-french';

/** A component of the first screen (a field in error) beside one of the pages (a pagination). */
function Screen() {
  return (
    <CloudscapeFrench>
      <FormField label="Clé de licence" errorText="Clé de licence invalide">
        <input aria-label="Clé de licence" />
      </FormField>
      <Pagination currentPageIndex={1} pagesCount={3} />
    </CloudscapeFrench>
  );
}

describe("Cloudscape's French labels", () => {
  it("are those of the first screen's components in the pre-rendered markup, as in the render hydrating it", () => {
    const markup = renderToString(<Screen />);

    expect(markup).toContain('aria-label="Erreur"');
    expect(markup).not.toContain('Page suivante');
  });

  it("are the whole catalogue's once it is in: a page's pagination reads in French", async () => {
    await loadCloudscapeFrench();

    render(<Screen />);

    expect(screen.getByRole('button', { name: 'Page suivante' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Page précédente' })).toBeVisible();
    expect(screen.getByLabelText('Erreur')).toBeVisible();
  });
});

describe("Cloudscape's catalogue that cannot be fetched", () => {
  afterEach(() => {
    vi.doUnmock('@cloudscape-design/components/i18n/messages/all.fr');
    vi.resetModules();
  });

  it('lets the page show with the labels it has, and is asked for again by the next page', async () => {
    // Arrange: a fresh copy of the module, whose catalogue chunk fails once
    vi.resetModules();
    vi.doMock('@cloudscape-design/components/i18n/messages/all.fr', () => {
      throw new TypeError('Failed to fetch dynamically imported module');
    });
    const french = await import('../../web/src/cloudscape-french');

    // Act
    await expect(french.loadCloudscapeFrench()).resolves.toBeUndefined();
    render(
      <french.CloudscapeFrench>
        <Pagination currentPageIndex={1} pagesCount={3} />
      </french.CloudscapeFrench>,
    );
    const shownWithout = screen.queryByRole('button', { name: 'Page suivante' });
    vi.doUnmock('@cloudscape-design/components/i18n/messages/all.fr');
    await act(() => french.loadCloudscapeFrench());

    // Assert: shown without the catalogue's labels, then in French once the second fetch succeeded
    expect(screen.getAllByRole('button').length).toBeGreaterThan(0);
    expect(shownWithout).toBeNull();
    expect(screen.getByRole('button', { name: 'Page suivante' })).toBeVisible();
  });
});
