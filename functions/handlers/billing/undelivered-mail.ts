import { SesUndeliveredEvent, type UndeliveredOutcome } from '../../domain/billing/undelivered-mail';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { undeliveredMailOf } from '../../runtime/services/billing';

/**
 * The target of the configuration set's bounces and complaints (an EventBridge rule,
 * `lib/constructs/mail-delivery.ts`): a licence e-mail that did not arrive marks its licence and its
 * lawyer 'e-mail non délivré'. An event of another shape is logged and dropped (a retry cannot
 * help); a failed write throws, so Lambda retries and then keeps the event under an alarm.
 */
const create =
  (deps: AppDependencies) =>
  async (event: unknown): Promise<UndeliveredOutcome | 'unreadable'> => {
    const parsed = SesUndeliveredEvent.safeParse(event);
    if (!parsed.success) {
      deps.logger.error('Événement SES illisible ignoré', { issues: parsed.error.issues.length });
      return 'unreadable';
    }
    return undeliveredMailOf(deps).record(parsed.data);
  };

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createUndeliveredMailHandler = declaredFunction('undelivered-mail', create);

export const handler = lambdaEntry('undelivered-mail', createUndeliveredMailHandler);
