/**
 * The artist's release page's file items (issue 34): the master, and the extended mix and the
 * instrumental when the label asks for them, each with its state and its upload. Placeholder until
 * the materials checks land.
 */
export interface ReleaseFileItem {
  kind: "master" | "extended" | "instrumental";
  required: boolean;
  state: "missing" | "checking" | "accepted" | "refused";
  /** Russian, when refused. */
  reason: string | null;
  filename: string | null;
}

export function ReleaseFiles(_props: { releaseId: number; items: ReleaseFileItem[]; onChanged: () => void }) {
  return null;
}
