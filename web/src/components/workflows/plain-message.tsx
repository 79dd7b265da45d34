import Box from '@cloudscape-design/components/box';
import ExpandableSection from '@cloudscape-design/components/expandable-section';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { ReactNode } from 'react';

import { type PlainWording, plainWording } from '../../../../shared/execution-wording';
import { HEALTH_TEXT } from './health-strings';

/** A plain sentence, and the recorded message it stands for behind 'Détails' (closed). */
function Worded({ wording, prefix = '' }: { readonly wording: PlainWording; readonly prefix?: string }) {
  if (wording.detail === null) return <>{`${prefix}${wording.text}`}</>;
  return (
    <SpaceBetween size="xxs">
      <span>{`${prefix}${wording.text}`}</span>
      <ExpandableSection variant="inline" headerText={HEALTH_TEXT.details}>
        <Box variant="code" fontSize="body-s">
          {wording.detail}
        </Box>
      </ExpandableSection>
    </SpaceBetween>
  );
}

/**
 * A recorded call's message as a lawyer reads it (alone, in a test's label or in a pause's reason):
 * a failure in plain words with what to check, the technical message (spec §8) behind 'Détails';
 * any other message as it is.
 */
export function PlainMessage({ message, prefix }: { readonly message: string; readonly prefix?: string }) {
  return <Worded wording={plainWording(message)} prefix={prefix} />;
}

/** A failed run's toast: the failure in plain words inside `frame`, its recorded message behind 'Détails'. */
export function plainToast(frame: (message: string) => string, message: string): ReactNode {
  const wording = plainWording(message);
  return <Worded wording={{ text: frame(wording.text), detail: wording.detail }} />;
}
