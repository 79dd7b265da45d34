import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { lawyerFixture } from '../back-office/fixtures';
import { resizeViewport } from '../support/browser-stubs';
import { emptyBackend, jsonResponse, mockNetwork } from '../support/fetch-mock';
import { renderApp } from '../support/render-app';
import { storeSessionOf } from '../support/sessions';

const notary = lawyerFixture({
  firstName: 'Louis',
  lastName: 'Bernard',
  email: 'louis.bernard.etude.notariale.de.la.rue-de-rivoli@gmail.com',
});

function openNotaries() {
  mockNetwork((request) =>
    new URL(request.url, 'http://localhost').pathname === '/api/lawyers'
      ? jsonResponse(200, { lawyers: [notary], nextCursor: null })
      : emptyBackend(request),
  );
  storeSessionOf('admin');
  return renderApp('/admin/notaries');
}

describe("tables under Cloudscape's 688 px breakpoint", () => {
  it('shows the notaries as cards on a phone: the name as header, each column a section', async () => {
    resizeViewport(390);
    openNotaries();

    const card = (await screen.findByText('Louis Bernard')).closest('li') as HTMLElement;
    expect(createWrapper(document.body).findTable()).toBeNull();
    const sections = createWrapper(document.body)
      .findCards()
      ?.findItems()[0]
      ?.findSections()
      .map((section) => [
        section.findSectionHeader()?.getElement().textContent,
        section.findContent()?.getElement().textContent,
      ]);
    expect(sections).toEqual([
      ['Email', notary.email],
      ['Google OAuth', 'Non configuré'],
      ['Date de création', '20/11/2026'],
      ['Actions', ''],
    ]);
    expect(within(card).getByRole('button', { name: 'Détails de Louis Bernard' })).toBeVisible();
  });

  it('turns the cards back into the table when the screen widens', async () => {
    resizeViewport(390);
    openNotaries();
    await screen.findByText('Louis Bernard');

    act(() => resizeViewport(1024));

    await waitFor(() => expect(createWrapper(document.body).findTable()).not.toBeNull());
    expect(createWrapper(document.body).findTable()?.findBodyCell(1, 2)?.getElement().textContent).toBe(
      notary.email,
    );
  });
});
