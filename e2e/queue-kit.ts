/**
 * A long queue quickly (issue 31's desk layout tests): processed tracks copied by SQL from one real
 * upload, with its audio report, each with its own name and an older upload date. The same way
 * review-desk.e2e.ts makes its 200 tracks.
 */
import { openDb } from "../db/client.ts";
import type { TestContext } from "./harness.ts";
import { apiAs } from "./staff-kit.ts";

/**
 * Waits until every track has its audio report (written just after processing completes). The
 * server tells of it only in the track's state, so the state is read until it is there: no count
 * of tries that would let a slow machine go on without it (the test's time limit ends a wait that
 * never ends; docs/decisions/0448).
 */
export async function waitAnalysed(t: TestContext, adminToken: string, ids: number[]) {
  for (const id of ids) {
    while (!(await apiAs(t, adminToken, `/admin/tracks/${id}`)).body.track?.analysis) {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/**
 * Copies of track `sourceId` named `names`, the i-th uploaded `names.length - i` hours before the
 * source (so «oldest first» lists them in the given order), with the source's audio report.
 */
export async function copyTracks(dataDir: string, sourceId: number, names: string[]): Promise<number[]> {
  const db = await openDb({ url: `file:${dataDir}/app.db` });
  try {
    const client = db.$client;
    const trackCols = (await client.execute("PRAGMA table_info(tracks)")).rows
      .map((r) => String(r.name))
      .filter((c) =>
        !["id", "filename", "upload_date", "review", "duplicate_of", "lease_owner", "lease_until"].includes(c)
      );
    const analysisCols = (await client.execute("PRAGMA table_info(track_analysis)")).rows
      .map((r) => String(r.name))
      .filter((c) => c !== "track_id");
    const src = (await client.execute({ sql: "SELECT upload_date FROM tracks WHERE id = ?", args: [sourceId] }))
      .rows[0];
    const base = Number(src.upload_date);
    const ids: number[] = [];
    const tx = await client.transaction("write");
    try {
      for (let i = 0; i < names.length; i++) {
        const made = await tx.execute({
          sql: `INSERT INTO tracks (filename, upload_date, review, ${trackCols.join(", ")})
                SELECT ?, ?, '', ${trackCols.join(", ")} FROM tracks WHERE id = ? RETURNING id`,
          args: [names[i], base - (names.length - i) * 3_600_000, sourceId],
        });
        const id = Number(made.rows[0].id);
        ids.push(id);
        await tx.execute({
          sql: `INSERT INTO track_analysis (track_id, ${analysisCols.join(", ")})
                SELECT ?, ${analysisCols.join(", ")} FROM track_analysis WHERE track_id = ?`,
          args: [id, sourceId],
        });
      }
      await tx.commit();
    } finally {
      tx.close();
    }
    return ids;
  } finally {
    db.$client.close();
  }
}
