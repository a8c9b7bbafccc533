import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useId, useState } from "react";
import { ConfirmDialog } from "../../components/ui/modal.tsx";
import { PAGE_SIZE_OPTIONS, Pagination, PAGINATION_TEXTS_EN } from "../../components/ui/pagination.tsx";
import { Toast, useToast } from "../../components/ui/toast.tsx";
import { useDocumentTitle } from "../../components/ui/use-document-title.ts";
import { errorText } from "../../lib/api.ts";
import { adminKeys } from "../../lib/staff-queries.ts";
import {
  adminRedisQuery,
  type RedisData,
  type RedisListPage,
  useCleanupRedis,
  useDeleteRedisKey,
} from "./redis-api.ts";

/** The status-store page. Its texts are English (spec 2 "Cache admin page"). */
export const CACHE_TOAST_MS = 3000;

type Group = "track_ids" | "track_status" | "errors" | "all";
type List = "trackIds" | "trackStatus" | "errorKeys";

/** Each list is paged on the server, on its own; one page size for all three. */
const FIRST_PAGES: Record<List, number> = { trackIds: 1, trackStatus: 1, errorKeys: 1 };

const GROUP_LABEL: Record<Group, string> = {
  track_ids: "track ID",
  track_status: "track status",
  errors: "error",
  all: "",
};

export const cleanupSuccessText = (count: number, group: Group) =>
  `Successfully cleaned up ${count}${GROUP_LABEL[group] ? ` ${GROUP_LABEL[group]}` : ""} keys.`;

function show(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

function statusBadge(status: string | null | undefined) {
  const s = (status ?? "unknown").toLowerCase();
  const cls = s === "completed" || s === "success"
    ? "st-badge st-badge-success"
    : s === "failed" || s === "error"
    ? "st-badge st-badge-danger"
    : s === "processing" || s === "queued"
    ? "st-badge st-badge-info"
    : "st-badge";
  return <span className={cls}>{status ?? "unknown"}</span>;
}

export function AdminRedisPage() {
  useDocumentTitle("Управление Redis");
  const queryClient = useQueryClient();
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZE_OPTIONS[0]);
  const [pages, setPages] = useState(FIRST_PAGES);
  const query = useQuery(adminRedisQuery({
    page_size: pageSize,
    track_ids_page: pages.trackIds,
    track_status_page: pages.trackStatus,
    errors_page: pages.errorKeys,
  }));
  // While the store is unreachable the lists would be out of date: only the message is shown.
  const data = query.isError ? undefined : query.data;
  const paging = data?.paging;
  // The server answers its last page for one past the end (after removals): follow it.
  useEffect(() => {
    if (!paging) return;
    setPages((p) => {
      const next = {
        trackIds: paging.trackIds.page,
        trackStatus: paging.trackStatus.page,
        errorKeys: paging.errorKeys.page,
      };
      return next.trackIds === p.trackIds && next.trackStatus === p.trackStatus && next.errorKeys === p.errorKeys
        ? p
        : next;
    });
  }, [paging]);
  const sizeId = useId();
  const { toast, show: showToast, hide } = useToast(CACHE_TOAST_MS);
  const [cleanup, setCleanup] = useState<Group | null>(null);
  const [busy, setBusy] = useState(false);
  const [removing, setRemoving] = useState<string | null>(null);

  const reload = () => queryClient.invalidateQueries({ queryKey: adminKeys.redis });
  const deleteKey = useDeleteRedisKey();
  const cleanupKeys = useCleanupRedis();

  const removeKey = async (key: string) => {
    setRemoving(key);
    try {
      await deleteKey.mutateAsync(key);
      showToast("success", `Key ${key} has been successfully removed.`);
    } catch (err) {
      showToast("error", errorText(err, "Failed to delete key"));
    } finally {
      setRemoving(null);
    }
  };

  const runCleanup = async () => {
    if (!cleanup) return;
    const group = cleanup;
    setBusy(true);
    try {
      const body = await cleanupKeys.mutateAsync(group);
      showToast("success", cleanupSuccessText(Number(body.count ?? 0), group));
    } catch (err) {
      showToast("error", errorText(err, `Failed to clean up ${GROUP_LABEL[group] || "all"} keys`));
    } finally {
      setBusy(false);
      setCleanup(null);
    }
  };

  const section = (title: string, group: Exclude<Group, "all">, count: number, body: ReactNode) => (
    <div className="st-section">
      <div className="st-page-head" style={{ marginBottom: 12 }}>
        <h2 style={{ margin: 0 }}>
          {title} <span className="st-muted">({count})</span>
        </h2>
        <button
          type="button"
          className="st-btn st-btn-sm st-btn-danger"
          disabled={count === 0}
          onClick={() => setCleanup(group)}
        >
          Clean up
        </button>
      </div>
      {body}
    </div>
  );

  const removeButton = (key: string) => (
    <button
      type="button"
      className="st-btn st-btn-sm st-btn-danger"
      disabled={removing === key}
      aria-label={`Remove ${key}`}
      onClick={() => void removeKey(key)}
    >
      Remove
    </button>
  );

  const empty = <p className="st-muted st-small" style={{ margin: 0 }}>No keys.</p>;

  return (
    <section className="st-page" lang="en">
      <div className="st-page-head">
        <h1>Redis Management</h1>
        <div className="st-page-actions">
          <label className="st-inline-field" htmlFor={sizeId} style={{ whiteSpace: "nowrap" }}>
            {PAGINATION_TEXTS_EN.perPage}
            <select
              id={sizeId}
              className="st-select"
              value={pageSize}
              onChange={(e) => {
                setPageSize(Number(e.target.value));
                setPages(FIRST_PAGES);
              }}
            >
              {PAGE_SIZE_OPTIONS.map((n) => <option key={n} value={n}>{n}</option>)}
            </select>
          </label>
          <button type="button" className="st-btn" onClick={() => void reload()} disabled={query.isFetching}>
            {query.isFetching ? "Loading..." : "Refresh"}
          </button>
          <button type="button" className="st-btn st-btn-danger" onClick={() => setCleanup("all")} disabled={!data}>
            Clean up all
          </button>
        </div>
      </div>

      {query.isError && (
        <div className="st-alert st-alert-error" role="alert">
          {errorText(query.error, "Failed to load Redis data", "Error loading Redis data")}
        </div>
      )}
      {query.isPending && <p className="st-muted">Loading...</p>}

      {data && (
        <RedisContent
          data={data}
          section={section}
          removeButton={removeButton}
          empty={empty}
          onPageChange={(list, page) => setPages((p) => ({ ...p, [list]: page }))}
        />
      )}

      <ConfirmDialog
        open={cleanup !== null}
        title="Confirm cleanup"
        message={cleanup === "all"
          ? "Remove all track ID, track status, error and success keys?"
          : `Remove all ${GROUP_LABEL[cleanup ?? "all"]} keys?`}
        warning="This action cannot be undone!"
        confirmLabel="Clean up"
        busyLabel="Cleaning up..."
        cancelLabel="Cancel"
        busy={busy}
        onConfirm={() => void runCleanup()}
        onCancel={() => setCleanup(null)}
      />
      <Toast toast={toast} onClose={hide} closeLabel="Close" />
    </section>
  );
}

function RedisContent({ data, section, removeButton, empty, onPageChange }: {
  data: RedisData;
  section: (title: string, group: "track_ids" | "track_status" | "errors", count: number, body: ReactNode) => ReactNode;
  removeButton: (key: string) => ReactNode;
  empty: ReactNode;
  onPageChange: (list: List, page: number) => void;
}) {
  const stats = data.stats;
  const pager = (list: List, shown: number) => {
    const at: RedisListPage | undefined = data.paging?.[list];
    if (!at || at.pages <= 1) return null;
    return (
      <Pagination
        page={at.page}
        pages={at.pages}
        onPageChange={(page) => onPageChange(list, page)}
        counts={{ shown, filtered: at.total, total: at.total }}
        texts={PAGINATION_TEXTS_EN}
      />
    );
  };
  return (
    <>
      <div className="st-cards">
        <div className="st-card">
          <span className="st-card-label">Track ID keys</span>
          <span className="st-card-value">{stats.track_ids}</span>
        </div>
        <div className="st-card">
          <span className="st-card-label">Track status keys</span>
          <span className="st-card-value">{stats.track_status}</span>
        </div>
        <div className="st-card">
          <span className="st-card-label">Error keys</span>
          <span className="st-card-value">{stats.errors}</span>
        </div>
        <div className="st-card">
          <span className="st-card-label">Success keys</span>
          <span className="st-card-value">{data.successCount ?? stats.success}</span>
        </div>
      </div>

      {section(
        "Stuck track IDs",
        "track_ids",
        stats.track_ids,
        data.trackIds.length === 0 ? empty : (
          <>
            <ul className="st-kv-list">
              {data.trackIds.map((e) => {
                const values: unknown[] = e.values ?? [];
                return (
                  <li key={e.key} className="st-kv-item">
                    <span className="st-kv-main">
                      <span className="st-kv-key">{e.key}</span>
                      <span className="st-kv-value">{values.length ? values.map(show).join(", ") : "—"}</span>
                    </span>
                    {removeButton(e.key)}
                  </li>
                );
              })}
            </ul>
            {pager("trackIds", data.trackIds.length)}
          </>
        ),
      )}

      {section(
        "Track status keys",
        "track_status",
        stats.track_status,
        data.trackStatus.length === 0 ? empty : (
          <>
            <ul className="st-kv-list">
              {data.trackStatus.map((e) => (
                <li key={e.key} className="st-kv-item">
                  <span className="st-kv-main">
                    <span className="st-row">
                      <span className="st-kv-key">{e.key}</span>
                      {statusBadge(e.value?.status)}
                    </span>
                    <span className="st-kv-value">{e.value?.filename ?? "—"}</span>
                  </span>
                  {removeButton(e.key)}
                </li>
              ))}
            </ul>
            {pager("trackStatus", data.trackStatus.length)}
          </>
        ),
      )}

      {section(
        "Error keys",
        "errors",
        stats.errors,
        data.errorKeys.length === 0 ? empty : (
          <>
            <ul className="st-kv-list">
              {data.errorKeys.map((e) => (
                <li key={e.key} className="st-kv-item">
                  <span className="st-kv-main">
                    <span className="st-kv-key">{e.key}</span>
                    <span className="st-kv-value">{show(e.value)}</span>
                  </span>
                  {removeButton(e.key)}
                </li>
              ))}
            </ul>
            {pager("errorKeys", data.errorKeys.length)}
          </>
        ),
      )}
    </>
  );
}
