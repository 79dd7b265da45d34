import { setImmediate as nextTurn } from 'node:timers/promises';

import type { PortalLinkQueue } from '../../functions/domain/billing/portal-link';
import type { Logger } from '../../functions/domain/core/ports';

/**
 * Portal-link requests in the local runtime: a task of the same process, started after the reply
 * has left (as the asynchronous invocation of the sender function in AWS). A task that fails is
 * logged; `settled` waits for the ones in flight (at stop).
 */
export class BackgroundPortalLinks implements PortalLinkQueue {
  private sender: ((event: { email: string }) => Promise<void>) | undefined;
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly logger: Logger) {}

  /** The sender handler, built once the runtime's dependencies (which hold this queue) exist. */
  serveWith(sender: (event: { email: string }) => Promise<void>): void {
    this.sender = sender;
  }

  async send(email: string): Promise<void> {
    const sender = this.sender;
    if (!sender) throw new Error('Envoi des liens du portail client non démarré');
    const task = nextTurn()
      .then(() => sender({ email }))
      .catch((error: unknown) => {
        this.logger.error('Lien du portail client non envoyé', {
          errorName: error instanceof Error ? error.name : 'inconnu',
        });
      });
    this.running.add(task);
    void task.finally(() => this.running.delete(task));
  }

  async settled(): Promise<void> {
    await Promise.all([...this.running]);
  }
}
