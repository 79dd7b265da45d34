import { randomUUID } from 'node:crypto';

import { SECOND_FACTOR } from '../../../shared/constants';
import { MESSAGES } from '../../../shared/messages';
import type { RememberedBrowser } from '../../../shared/schemas/second-factor';
import { NotFoundError } from '../core/errors';
import { deviceCookieOf, secureCookiesFor, signDeviceCookie } from '../identity/device-cookie';
import type { SessionContext } from '../identity/sessions';
import { type Browser, nowSecondsOf, type SecondFactorDeps } from './context';
import type { RememberedDevices } from './ports';

/** More than a licence keeps: the list is read whole (a licence keeps `maxPerLicense` at most). */
const LIST_LIMIT = 50;

/**
 * What a user recognises a browser by, from its user agent: 'Firefox sur Windows'. Nothing of it
 * is trusted; it only names the entry in the security settings.
 */
export function browserLabelOf(userAgent: string): string {
  const browser =
    [
      [/Edg\//, 'Edge'],
      [/OPR\//, 'Opera'],
      [/Firefox\//, 'Firefox'],
      [/Chrome\/|CriOS\//, 'Chrome'],
      [/Safari\//, 'Safari'],
    ].find(([pattern]) => (pattern as RegExp).test(userAgent))?.[1] ?? 'Navigateur';
  const system =
    [
      [/iPhone|iPad/, 'iOS'],
      [/Android/, 'Android'],
      [/Windows/, 'Windows'],
      [/Mac OS X|Macintosh/, 'macOS'],
      [/Linux/, 'Linux'],
    ].find(([pattern]) => (pattern as RegExp).test(userAgent))?.[1] ?? null;
  return system ? `${browser} sur ${system}` : (browser as string);
}

/**
 * The browsers that passed a licence's factor, remembered by a device cookie for
 * `rememberedBrowser.lifetimeSeconds` (renewed each time they pass it again): listed and forgotten
 * from the security settings. Forgetting one ends its sessions (the one showing the list aside).
 */
export class RememberedBrowsers {
  private readonly devices: RememberedDevices;

  constructor(private readonly deps: SecondFactorDeps) {
    this.devices = deps.devices;
  }

  async list(session: SessionContext): Promise<RememberedBrowser[]> {
    const devices = await this.devices.list(
      session.licenseKeyHash,
      nowSecondsOf(this.deps.clock),
      LIST_LIMIT,
    );
    return devices
      .sort((a, b) => b.lastUsedAt.localeCompare(a.lastUsedAt))
      .map((device) => ({
        id: device.deviceId,
        label: device.label,
        createdAt: device.createdAt,
        lastUsedAt: device.lastUsedAt,
        expiresAt: new Date(device.expiresAt * 1000).toISOString(),
        current: device.deviceId === session.deviceId,
      }));
  }

  async forget(session: SessionContext, deviceId: string): Promise<void> {
    if (!(await this.devices.delete(session.licenseKeyHash, deviceId)))
      throw new NotFoundError(MESSAGES.secondFactor.browserNotFound);
    if (deviceId !== session.deviceId)
      await this.deps.sessionRecords.deleteByDevice(session.licenseKeyHash, deviceId);
  }

  /**
   * Remembers the browser of a session that just passed the factor (or renews it): returns its id
   * and the `Set-Cookie` value of its device cookie. A licence keeps its `maxPerLicense` browsers
   * used last.
   */
  async remember(session: SessionContext, browser: Browser): Promise<{ deviceId: string; cookie: string }> {
    const now = this.deps.clock.now();
    const nowSeconds = nowSecondsOf(this.deps.clock);
    const keyHash = session.licenseKeyHash;
    const known = await this.devices.list(keyHash, nowSeconds, LIST_LIMIT);
    const current = known.find((device) => device.deviceId === session.deviceId);
    const deviceId = current?.deviceId ?? randomUUID();
    const { token, expiresAt } = await signDeviceCookie(
      this.deps.keys.sessionSigningKey,
      { deviceId, licenseKeyHash: keyHash },
      now,
    );
    await this.devices.put({
      deviceId,
      licenseKeyHash: keyHash,
      label: browserLabelOf(browser.userAgent),
      createdAt: current?.createdAt ?? now.toISOString(),
      lastUsedAt: now.toISOString(),
      expiresAt,
    });
    const others = known
      .filter((device) => device.deviceId !== deviceId)
      .sort((a, b) => b.lastUsedAt.localeCompare(a.lastUsedAt));
    const beyond = others.slice(SECOND_FACTOR.rememberedBrowser.maxPerLicense - 1);
    await Promise.all(beyond.map((device) => this.devices.delete(keyHash, device.deviceId)));
    const secure = secureCookiesFor(this.deps.settings.relyingParty().origin);
    return { deviceId, cookie: deviceCookieOf(token, { secure }) };
  }
}
