import Button from '@cloudscape-design/components/button';
import LiveRegion from '@cloudscape-design/components/live-region';
import { useEffect, useRef, useState } from 'react';

import { COPY_FEEDBACK_MS, MESSAGES } from '../../../../shared';
import { useNotifications } from '../../notifications/notifications-context';
import { TEST_PROMO_TEXT as TEXT } from './strings';

/**
 * Copies a code to the clipboard and reads 'Copié !' for 2 seconds (spec §9 copy feedback).
 * Cloudscape's CopyToClipboard keeps its popover until the user moves on, which is not the spec's
 * timed state, hence a plain button. A refused clipboard raises 'Impossible de copier le code'.
 */
export function CopyCodeButton({ code }: { readonly code: string }) {
  const notifications = useNotifications();
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    try {
      // Undefined outside a secure context (plain http on another host than localhost).
      if (!navigator.clipboard) throw new Error('Clipboard API unavailable');
      await navigator.clipboard.writeText(code);
    } catch {
      notifications.error(MESSAGES.promo.copyFailed);
      return;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPY_FEEDBACK_MS);
  };

  return (
    <>
      <Button
        iconName={copied ? 'status-positive' : 'copy'}
        ariaLabel={copied ? MESSAGES.promo.copied : TEXT.generator.copyLabel}
        onClick={() => void copy()}
      >
        {copied ? MESSAGES.promo.copied : TEXT.generator.copy}
      </Button>
      <LiveRegion hidden>{copied ? MESSAGES.promo.copied : ''}</LiveRegion>
    </>
  );
}
