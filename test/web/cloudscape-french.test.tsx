import FormField from '@cloudscape-design/components/form-field';
import Pagination from '@cloudscape-design/components/pagination';
import { render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';

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

    expect(screen.getByRole('button', { name: 'Page suivante' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Page précédente' })).toBeTruthy();
    expect(screen.getByLabelText('Erreur')).toBeTruthy();
  });
});
