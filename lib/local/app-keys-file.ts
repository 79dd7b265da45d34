import { existsSync, readFileSync, writeFileSync } from 'node:fs';

import { type AppKeys, generateStoredAppKeys, parseAppKeys } from '../../functions/security/app-keys';

/**
 * The local stand-in of the app-keys secret: a file readable by its owner only (0600), generated
 * on first start and kept with the data so that sessions and licence hashes survive restarts.
 */
export function loadOrCreateAppKeys(path: string): AppKeys {
  if (!existsSync(path)) {
    writeFileSync(path, JSON.stringify(generateStoredAppKeys(), null, 2), { mode: 0o600 });
  }
  return parseAppKeys(readFileSync(path, 'utf8'));
}
