import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Checkbox from '@cloudscape-design/components/checkbox';
import CopyToClipboard from '@cloudscape-design/components/copy-to-clipboard';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useState } from 'react';

import { SECOND_FACTOR_TEXT } from './strings';

/** The 10 recovery codes, shown once, until the user says he kept them. */
export function RecoveryCodes({
  codes,
  onDone,
}: {
  readonly codes: readonly string[];
  readonly onDone: () => void;
}) {
  const [saved, setSaved] = useState(false);
  return (
    <SpaceBetween size="m">
      <Box variant="h3">{SECOND_FACTOR_TEXT.recoveryTitle}</Box>
      <Box>{SECOND_FACTOR_TEXT.recoveryExplanation}</Box>
      <ul aria-label={SECOND_FACTOR_TEXT.recoveryTitle} style={{ columns: 2, listStyle: 'none', padding: 0 }}>
        {codes.map((code) => (
          <li key={code}>
            <Box variant="code">{code}</Box>
          </li>
        ))}
      </ul>
      <CopyToClipboard
        variant="button"
        copyButtonText={SECOND_FACTOR_TEXT.copyCodes}
        copySuccessText={SECOND_FACTOR_TEXT.copied}
        copyErrorText="Impossible de copier le code"
        textToCopy={codes.join('\n')}
      />
      <Checkbox checked={saved} onChange={({ detail }) => setSaved(detail.checked)}>
        {SECOND_FACTOR_TEXT.savedCodes}
      </Checkbox>
      <Button variant="primary" disabled={!saved} onClick={onDone}>
        {SECOND_FACTOR_TEXT.continue}
      </Button>
    </SpaceBetween>
  );
}
