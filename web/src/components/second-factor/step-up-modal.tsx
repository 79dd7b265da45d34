import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';

import type { SecondFactorMethod } from '../../../../shared';
import { SecondFactorCheck } from './second-factor-check';
import { SECOND_FACTOR_TEXT } from './strings';

/** The step-up dialog itself: the check of one of `methods`, or the visitor's cancel. */
export function StepUpModal({
  methods,
  onFinished,
}: {
  readonly methods: readonly SecondFactorMethod[];
  readonly onFinished: (passed: boolean) => void;
}) {
  return (
    <Modal
      visible
      onDismiss={() => onFinished(false)}
      header={SECOND_FACTOR_TEXT.stepUpTitle}
      closeAriaLabel={SECOND_FACTOR_TEXT.close}
    >
      <SpaceBetween size="m">
        <Box>{SECOND_FACTOR_TEXT.stepUpDescription}</Box>
        <SecondFactorCheck
          methods={methods}
          onVerified={() => onFinished(true)}
          secondaryAction={
            <Button variant="link" formAction="none" onClick={() => onFinished(false)}>
              {SECOND_FACTOR_TEXT.cancel}
            </Button>
          }
        />
      </SpaceBetween>
    </Modal>
  );
}
