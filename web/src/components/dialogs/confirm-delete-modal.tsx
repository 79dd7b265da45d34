import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { type ReactNode, useState } from 'react';

export interface ConfirmDeleteModalProps {
  readonly title: string;
  readonly children: ReactNode;
  readonly confirmLabel: string;
  readonly cancelLabel: string;
  /** Runs the deletion; the dialog stays open (loading) until it settles. */
  readonly onConfirm: () => Promise<void>;
  readonly onDismiss: () => void;
}

/** A delete confirmation: the irreversible action runs only from this dialog's primary button. */
export function ConfirmDeleteModal({
  title,
  children,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onDismiss,
}: ConfirmDeleteModalProps) {
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      visible
      header={title}
      onDismiss={() => !busy && onDismiss()}
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" disabled={busy} onClick={onDismiss}>
              {cancelLabel}
            </Button>
            <Button variant="primary" loading={busy} onClick={() => void confirm()}>
              {confirmLabel}
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      {children}
    </Modal>
  );
}
