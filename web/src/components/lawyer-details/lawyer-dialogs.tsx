import type { Lawyer } from '../../../../shared';
import { ConfirmDeleteModal } from '../dialogs/confirm-delete-modal';
import { type DetailsVariant, LawyerDetailsModal } from './lawyer-details-modal';

/** A directory page's open dialog about one lawyer. */
export type LawyerDialog = { readonly kind: 'details' | 'delete'; readonly lawyer: Lawyer };

export interface LawyerDialogsProps {
  readonly dialog: LawyerDialog | null;
  readonly variant: DetailsVariant;
  /** The page's texts of its delete confirmation. */
  readonly deleteTexts: {
    readonly deleteTitle: string;
    readonly deleteConfirm: string;
    readonly cancel: string;
    readonly deleteBody: (name: string) => string;
  };
  readonly onDelete: (lawyer: Lawyer) => Promise<void>;
  readonly onClose: () => void;
}

/** The details and delete dialogs of /admin/lawyers and /admin/notaries. */
export function LawyerDialogs({ dialog, variant, deleteTexts, onDelete, onClose }: LawyerDialogsProps) {
  if (!dialog) return null;
  if (dialog.kind === 'details') {
    return <LawyerDetailsModal lawyer={dialog.lawyer} variant={variant} onDismiss={onClose} />;
  }
  return (
    <ConfirmDeleteModal
      title={deleteTexts.deleteTitle}
      confirmLabel={deleteTexts.deleteConfirm}
      cancelLabel={deleteTexts.cancel}
      onConfirm={() => onDelete(dialog.lawyer)}
      onDismiss={onClose}
    >
      {deleteTexts.deleteBody(`${dialog.lawyer.firstName} ${dialog.lawyer.lastName}`)}
    </ConfirmDeleteModal>
  );
}
