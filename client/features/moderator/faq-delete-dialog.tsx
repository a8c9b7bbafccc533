import { ConfirmDialog } from "../../components/ui/modal.tsx";

/** "Delete FAQ Item" confirmation, the same on the FAQ list and in the FAQ editor. */
export function ModeratorFaqDeleteDialog(
  { question, open, busy, onConfirm, onCancel }: {
    question: string | undefined;
    open: boolean;
    busy: boolean;
    onConfirm: () => void;
    onCancel: () => void;
  },
) {
  return (
    <ConfirmDialog
      open={open}
      title="Delete FAQ Item"
      message={
        <>
          Are you sure you want to delete this FAQ item?
          <strong style={{ display: "block", marginTop: 8 }} data-user-content="">{question}</strong>
        </>
      }
      warning="This action cannot be undone."
      confirmLabel="Delete"
      busyLabel="Deleting..."
      cancelLabel="Cancel"
      closeLabel="Close"
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}
