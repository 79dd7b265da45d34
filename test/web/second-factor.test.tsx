import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { MESSAGES } from '../../shared';
import { SECOND_FACTOR_TEXT } from '../../web/src/components/second-factor/strings';
import { emptyBackend, jsonResponse, mockNetwork, type SentRequest } from './support/fetch-mock';
import { renderApp } from './support/render-app';
import { storedSession, storeSessionOf } from './support/sessions';

const KEY = 'NOTARY-ABCD1234';
const PENDING_TOKEN = 'pending-token';
const inTwelveHours = () => new Date(Date.now() + 12 * 60 * 60 * 1000).toISOString();

/** verify-license's reply for a licence whose second factor comes next. */
function pendingReply(step: 'enrol' | 'verify', methods: string[]) {
  return {
    valid: true,
    licenseType: 'admin',
    userEmail: '',
    displayName: 'Administrateur',
    token: PENDING_TOKEN,
    expiresAt: new Date(Date.now() + 10 * 60 * 1000).toISOString(),
    secondFactor: { step, methods },
  };
}

const fullSession = {
  valid: true,
  licenseType: 'admin',
  userEmail: '',
  displayName: 'Administrateur',
  token: 'full-token',
  expiresAt: inTwelveHours(),
};

const path = (request: SentRequest) => new URL(request.url, 'http://localhost').pathname;

async function submitKey(app: ReturnType<typeof renderApp>) {
  await app.user.type(screen.getByLabelText('Clé de licence'), KEY);
  await app.user.click(screen.getByRole('button', { name: 'Se connecter' }));
}

describe("/login's second step ('Vérification en deux étapes')", () => {
  it('asks for the authenticator code, shows a wrong one refused, then signs in with the full session', async () => {
    // Arrange
    let attempts = 0;
    const network = mockNetwork((request) => {
      if (path(request) === '/api/verify-license')
        return jsonResponse(200, pendingReply('verify', ['totp', 'recovery']));
      if (path(request) === '/api/second-factor/verify') {
        attempts += 1;
        return attempts === 1
          ? jsonResponse(400, { error: 'Code invalide' })
          : jsonResponse(200, { verifiedAt: new Date().toISOString(), session: fullSession });
      }
      return emptyBackend(request);
    });
    const app = renderApp('/login');

    // Act
    await submitKey(app);
    await screen.findByRole('heading', { name: SECOND_FACTOR_TEXT.title });
    expect(storedSession()).toBeNull();
    await app.user.type(screen.getByLabelText(SECOND_FACTOR_TEXT.codeLabel), '123456');
    await app.user.click(screen.getByRole('button', { name: SECOND_FACTOR_TEXT.verify }));
    await screen.findByText('Code invalide');
    await app.user.clear(screen.getByLabelText(SECOND_FACTOR_TEXT.codeLabel));
    await app.user.type(screen.getByLabelText(SECOND_FACTOR_TEXT.codeLabel), '654321');
    await app.user.click(screen.getByRole('button', { name: SECOND_FACTOR_TEXT.verify }));

    // Assert
    await waitFor(() => expect(app.pathname()).toBe('/admin/workflows'));
    expect(storedSession()).toMatchObject({ licenseKey: KEY, role: 'admin', token: 'full-token' });
    const checks = network.to('/api/second-factor/verify');
    expect(checks.map((check) => check.body)).toEqual([
      { method: 'totp', code: '123456' },
      { method: 'totp', code: '654321' },
    ]);
    expect(checks[0]?.headers.authorization).toBe(`Bearer ${PENDING_TOKEN}`);
  });

  it("switches to a recovery code and says 'Trop de tentatives…' when the server refuses", async () => {
    // Arrange
    const network = mockNetwork((request) => {
      if (path(request) === '/api/verify-license')
        return jsonResponse(200, pendingReply('verify', ['totp', 'recovery']));
      if (path(request) === '/api/second-factor/verify')
        return jsonResponse(429, { error: MESSAGES.secondFactor.tooManyAttempts });
      return emptyBackend(request);
    });
    const app = renderApp('/login');

    // Act
    await submitKey(app);
    await app.user.click(await screen.findByRole('button', { name: SECOND_FACTOR_TEXT.useRecovery }));
    await app.user.type(screen.getByLabelText(SECOND_FACTOR_TEXT.recoveryLabel), 'abcde-fghjk');
    await app.user.click(screen.getByRole('button', { name: SECOND_FACTOR_TEXT.verify }));

    // Assert
    expect(await screen.findByText(MESSAGES.secondFactor.tooManyAttempts)).toBeVisible();
    expect(network.to('/api/second-factor/verify')[0]?.body).toEqual({
      method: 'recovery',
      code: 'abcde-fghjk',
    });
    expect(app.pathname()).toBe('/login');
    expect(storedSession()).toBeNull();
  });

  it('enrols an authenticator app from its QR code and shows the 10 recovery codes once before entering', async () => {
    // Arrange
    const codes = Array.from({ length: 10 }, (_, index) => `ABCDE-FGH${index}K`);
    const network = mockNetwork((request) => {
      if (path(request) === '/api/verify-license') return jsonResponse(200, pendingReply('enrol', []));
      if (path(request) === '/api/second-factor/totp')
        return jsonResponse(200, {
          secret: 'JBSWY3DPEHPK3PXP',
          otpauthUri: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP',
          qrCodeDataUrl: 'data:image/svg+xml;base64,PHN2Zy8+',
        });
      if (path(request) === '/api/second-factor/totp/confirm')
        return jsonResponse(200, { recoveryCodes: codes, session: fullSession });
      return emptyBackend(request);
    });
    const app = renderApp('/login');

    // Act
    await submitKey(app);
    await screen.findByText(SECOND_FACTOR_TEXT.enrolDescription);
    await app.user.click(screen.getByRole('tab', { name: SECOND_FACTOR_TEXT.totpTab }));
    await app.user.click(screen.getByRole('button', { name: SECOND_FACTOR_TEXT.showQrCode }));
    const qrCode = await screen.findByRole('img', { name: SECOND_FACTOR_TEXT.qrCodeAlt });
    expect(qrCode.getAttribute('src')).toBe('data:image/svg+xml;base64,PHN2Zy8+');
    expect(screen.getByText('JBSWY3DPEHPK3PXP')).toBeVisible();
    await app.user.type(screen.getByLabelText(SECOND_FACTOR_TEXT.codeLabel), '123456');
    await app.user.click(screen.getByRole('button', { name: SECOND_FACTOR_TEXT.confirm }));
    const list = await screen.findByRole('list', { name: SECOND_FACTOR_TEXT.recoveryTitle });

    // Assert
    expect(list.querySelectorAll('li')).toHaveLength(10);
    expect(storedSession()).toBeNull();
    const next = screen.getByRole('button', { name: SECOND_FACTOR_TEXT.continue });
    expect(next.hasAttribute('disabled') || next.getAttribute('aria-disabled') === 'true').toBe(true);
    await app.user.click(screen.getByText(SECOND_FACTOR_TEXT.savedCodes));
    await app.user.click(screen.getByRole('button', { name: SECOND_FACTOR_TEXT.continue }));
    await waitFor(() => expect(app.pathname()).toBe('/admin/workflows'));
    expect(storedSession()).toMatchObject({ token: 'full-token' });
    expect(network.to('/api/second-factor/totp/confirm')[0]?.headers.authorization).toBe(
      `Bearer ${PENDING_TOKEN}`,
    );
  });
});

describe('step-up before a sensitive action', () => {
  it('asks for the factor when the server says SECOND_FACTOR_REQUIRED, then sends the action again', async () => {
    // Arrange
    storeSessionOf('admin');
    let promoCalls = 0;
    const network = mockNetwork((request) => {
      if (path(request) === '/api/create-promo-code') {
        promoCalls += 1;
        return promoCalls === 1
          ? jsonResponse(403, { error: MESSAGES.secondFactor.stepUpRequired, code: 'SECOND_FACTOR_REQUIRED' })
          : jsonResponse(200, { success: true, promoCode: 'TEST-PROMO-1', percentOff: 100 });
      }
      if (path(request) === '/api/second-factor')
        return jsonResponse(200, {
          required: true,
          enrolled: true,
          totp: true,
          passkeys: [],
          recoveryCodesLeft: 10,
          verifiedAt: null,
        });
      if (path(request) === '/api/second-factor/verify')
        return jsonResponse(200, { verifiedAt: new Date().toISOString() });
      return emptyBackend(request);
    });
    const app = renderApp('/admin/test-promo');

    // Act
    await app.user.click(await screen.findByRole('button', { name: 'Créer un code promo à 100 %' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain(SECOND_FACTOR_TEXT.stepUpDescription);
    // The check's code is loaded when first needed.
    await app.user.type(await screen.findByLabelText(SECOND_FACTOR_TEXT.codeLabel), '123456');
    await app.user.click(screen.getByRole('button', { name: SECOND_FACTOR_TEXT.verify }));

    // Assert
    expect(await screen.findByText('TEST-PROMO-1')).toBeVisible();
    expect(promoCalls).toBe(2);
    expect(network.to('/api/second-factor/verify')[0]?.body).toEqual({ method: 'totp', code: '123456' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows the refusal and sends nothing more when the user cancels the check', async () => {
    // Arrange
    storeSessionOf('admin');
    const network = mockNetwork((request) => {
      if (path(request) === '/api/create-promo-code')
        return jsonResponse(403, {
          error: MESSAGES.secondFactor.stepUpRequired,
          code: 'SECOND_FACTOR_REQUIRED',
        });
      if (path(request) === '/api/second-factor')
        return jsonResponse(200, {
          required: true,
          enrolled: true,
          totp: true,
          passkeys: [],
          recoveryCodesLeft: 0,
          verifiedAt: null,
        });
      return emptyBackend(request);
    });
    const app = renderApp('/admin/test-promo');

    // Act
    await app.user.click(await screen.findByRole('button', { name: 'Créer un code promo à 100 %' }));
    await screen.findByRole('dialog');
    await app.user.click(await screen.findByRole('button', { name: SECOND_FACTOR_TEXT.cancel }));

    // Assert
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(network.to('/api/create-promo-code')).toHaveLength(1);
    expect(network.to('/api/second-factor/verify')).toHaveLength(0);
  });
});

describe('remembered browsers in the security settings', () => {
  it('lists the browsers that passed the factor and forgets one on request', async () => {
    // Arrange
    storeSessionOf('admin');
    const browsers = [
      {
        id: '11111111-1111-4111-8111-111111111111',
        label: 'Firefox sur Windows',
        createdAt: '2026-11-01T09:00:00.000Z',
        lastUsedAt: '2026-11-20T09:00:00.000Z',
        expiresAt: '2026-12-20T09:00:00.000Z',
        current: true,
      },
      {
        id: '22222222-2222-4222-8222-222222222222',
        label: 'Chrome sur Linux',
        createdAt: '2026-11-02T09:00:00.000Z',
        lastUsedAt: '2026-11-10T09:00:00.000Z',
        expiresAt: '2026-12-10T09:00:00.000Z',
        current: false,
      },
    ];
    let remembered = browsers;
    const network = mockNetwork((request) => {
      if (path(request) === '/api/second-factor')
        return jsonResponse(200, {
          required: true,
          enrolled: true,
          totp: true,
          passkeys: [],
          recoveryCodesLeft: 10,
          verifiedAt: new Date().toISOString(),
        });
      if (path(request) === '/api/second-factor/browsers') return jsonResponse(200, { browsers: remembered });
      if (path(request).startsWith('/api/second-factor/browsers/')) {
        // As the server does: a forgotten browser is no longer listed.
        remembered = remembered.filter((browser) => !path(request).endsWith(browser.id));
        return jsonResponse(200, { success: true });
      }
      return emptyBackend(request);
    });
    const app = renderApp('/admin/settings');
    const text = SECOND_FACTOR_TEXT.browsers;

    // Act
    await screen.findByText(text.current('Firefox sur Windows'), {}, { timeout: 10_000 });
    await app.user.click(screen.getByRole('button', { name: text.forgetLabel('Chrome sur Linux') }));

    // Assert
    expect(await screen.findByText(text.forgotten('Chrome sur Linux'))).toBeVisible();
    await waitFor(() => expect(screen.queryByText('Chrome sur Linux')).toBeNull());
    const sent = network.to(`/api/second-factor/browsers/${browsers[1]!.id}`);
    expect(sent.map((request) => request.method)).toEqual(['DELETE']);
    expect(screen.getByText(text.current('Firefox sur Windows'))).toBeVisible();
  });
});

describe("the security settings' 'Obligatoire' value on a phone", () => {
  it("keeps '(recommandée)' in one piece, the words as written", async () => {
    // Arrange: the empty backend's licence has a second factor not required, none enrolled.
    storeSessionOf('admin');
    mockNetwork(emptyBackend);

    // Act
    renderApp('/admin/settings');
    const group = await screen.findByText('(recommandée)', {}, { timeout: 10_000 });

    // Assert: the narrow column breaks before the parenthesis, never inside it.
    expect(group.style.whiteSpace).toBe('nowrap');
    expect(group.parentElement?.textContent).toBe(SECOND_FACTOR_TEXT.optional);
  });
});
