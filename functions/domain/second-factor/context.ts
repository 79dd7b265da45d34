import type { AppKeys } from '../../security/app-keys';
import type { Clock, Logger, MailPorts } from '../core/ports';
import type { AuditTrail } from '../directory/audit';
import type { ProfileLookup } from '../directory/members';
import type { Licenses, Sessions } from '../identity/ports';
import type { SessionOpener } from '../identity/session-opener';
import type { SessionService } from '../identity/sessions';
import type {
  RememberedDevices,
  SecondFactorAttempts,
  SecondFactorSettings,
  SecondFactors,
  WebAuthnChallenges,
} from './ports';

/** The stores of the second factor and of what it reads around it (wired in `runtime/services`). */
export interface SecondFactorStores {
  readonly factors: SecondFactors;
  readonly attempts: SecondFactorAttempts;
  readonly devices: RememberedDevices;
  readonly challenges: WebAuthnChallenges;
  readonly licenses: Pick<Licenses, 'getByHash'>;
  readonly lawyers: ProfileLookup;
  /** The licence's sessions, which a change of factor or a forgotten browser ends. */
  readonly sessionRecords: Pick<Sessions, 'deleteByLicense' | 'deleteByDevice'>;
}

/** What the second factor's services work with, built once per request (`runtime/services`). */
export interface SecondFactorDeps extends SecondFactorStores {
  readonly keys: AppKeys;
  readonly clock: Clock;
  readonly settings: SecondFactorSettings;
  readonly logger: Logger;
  /** Ends a pending session that passed, and dates a step-up. */
  readonly sessions: SessionService;
  /** Opens the full session of a pending one that passed. */
  readonly opener: SessionOpener;
  /** The trail of an admin's reset of another licence's factor. */
  readonly audit: Pick<AuditTrail, 'joinedWrite'>;
  /** E-mail to a licence's owner when wrong codes lock it; absent, the lock is only logged. */
  readonly mail?: MailPorts;
}

/** The browser a request comes from, as it describes itself (to name it once remembered). */
export interface Browser {
  readonly userAgent: string;
}

export const nowSecondsOf = (clock: Clock): number => Math.floor(clock.now().getTime() / 1000);
