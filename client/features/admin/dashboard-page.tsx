import { PeriodPicker } from "../../components/period-picker.tsx";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { isDirection } from "../../../domain/directions.ts";
import { ADMIN_DIRECTION_LABELS } from "../../../domain/staff-directions.ts";
import { useDocumentTitle } from "../../components/ui/use-document-title.ts";
import { errorText } from "../../lib/api.ts";
import { ReleaseFigures } from "./release-figures.tsx";
import { adminDashboardQuery, adminResponseFiguresQuery, type Period } from "./dashboard-api.ts";
import { DownloadPie, HorizontalBars, TimelineChart } from "./dashboard-charts.tsx";
import { ReviewCounts } from "./review-counts.tsx";
import { REVIEW_QUEUE_TEXTS_RU, ReviewQueue } from "../../components/review-queue.tsx";
import { RESPONSE_FIGURES_TEXTS_RU, ResponseFigures } from "../../components/response-figures.tsx";

const PERIODS: Array<{ value: Period; label: string }> = [
  { value: "day", label: "День" },
  { value: "week", label: "Неделя" },
  { value: "month", label: "Месяц" },
  { value: "year", label: "Год" },
];

/** The label started in 2000: the "years on the stage" card counts from then. */
export const STAGE_START_YEAR = 2000;

const directionLabel = (code: string) => (isDirection(code) ? ADMIN_DIRECTION_LABELS[code] : code);

export function AdminDashboardPage() {
  useDocumentTitle("Панель управления");
  const [period, setPeriod] = useState<Period>("month");
  const query = useQuery(adminDashboardQuery(period));
  const figures = useQuery(adminResponseFiguresQuery(period));
  const stats = query.data;

  return (
    <section className="st-page">
      <div className="st-page-head">
        <h1>Панель управления</h1>
      </div>
      {query.isPending && <p className="st-muted">Загрузка статистики...</p>}
      {query.isError && !stats && (
        <div className="st-alert st-alert-error" role="alert">
          {errorText(query.error, "Не удалось загрузить статистику", "Ошибка загрузки данных")}
        </div>
      )}
      {stats && (
        <>
          <div className="st-cards">
            <div className="st-card">
              <span className="st-card-label">Всего пользователей</span>
              <span className="st-card-value">{stats.total_users}</span>
            </div>
            <div className="st-card">
              <span className="st-card-label">Всего треков</span>
              <span className="st-card-value">{stats.total_tracks}</span>
            </div>
            <div className="st-card">
              <span className="st-card-label">Скачано треков</span>
              <span className="st-card-value">{stats.track_downloads.downloaded}</span>
              <span className="st-card-sub">не скачано: {stats.track_downloads.not_downloaded}</span>
            </div>
            <div className="st-card">
              <span className="st-card-label">Топ пользователь</span>
              <span className="st-card-value" style={{ fontSize: 22 }}>{stats.top_user?.username ?? "Нет данных"}</span>
              {stats.top_user && <span className="st-card-sub">треков: {stats.top_user.track_count}</span>}
            </div>
            <div className="st-card st-card-accent">
              <span className="st-card-label">Лет на сцене</span>
              <span className="st-card-value">{new Date().getFullYear() - STAGE_START_YEAR}</span>
            </div>
          </div>

          {stats.review_queue && (
            <ReviewQueue
              rows={stats.review_queue}
              tracksPath="/admin/tracks"
              directionLabel={directionLabel}
              texts={REVIEW_QUEUE_TEXTS_RU}
            />
          )}

          <div className="st-section">
            <div className="st-page-head" style={{ marginBottom: 12 }}>
              <h2 style={{ margin: 0 }}>Загрузки треков</h2>
              <PeriodPicker periods={PERIODS} value={period} onChange={setPeriod} label="Период" />
            </div>
            {query.isError && (
              <div className="st-alert st-alert-error" role="alert">
                {errorText(query.error, "Не удалось загрузить статистику", "Ошибка загрузки данных")}
              </div>
            )}
            <TimelineChart labels={stats.track_timeline.labels} data={stats.track_timeline.data} />
          </div>

          <div className="st-grid-2">
            <div className="st-section">
              <h2>Платформы пользователей</h2>
              <HorizontalBars
                scale={stats.total_users}
                rows={[
                  { label: "VK", value: stats.user_platforms.vk },
                  { label: "Telegram", value: stats.user_platforms.telegram },
                  { label: "VK + Telegram", value: stats.user_platforms.combined },
                ]}
              />
            </div>
            <div className="st-section">
              <h2>Статус скачивания</h2>
              <DownloadPie
                downloaded={stats.track_downloads.downloaded}
                notDownloaded={stats.track_downloads.not_downloaded}
              />
            </div>
          </div>

          <div className="st-section" style={{ marginTop: 20 }}>
            <h2>Треки по направлениям</h2>
            {stats.directions.data.length === 0
              ? <p className="st-empty">Нет данных для отображения</p>
              : (
                <HorizontalBars
                  scale={Math.max(0, ...stats.directions.data)}
                  rows={stats.directions.labels.map((label, i) => ({
                    label: directionLabel(label),
                    value: stats.directions.data[i] ?? 0,
                  }))}
                />
              )}
          </div>
          {stats.review && <ReviewCounts rows={stats.review} />}
          <ReleaseFigures />
          {figures.data && (
            <ResponseFigures
              figures={figures.data}
              directionLabel={directionLabel}
              texts={RESPONSE_FIGURES_TEXTS_RU}
              periodPicker={
                <p className="st-muted" style={{ margin: 0 }}>
                  {`Период: ${PERIODS.find((p) => p.value === period)?.label.toLowerCase()} (переключатель выше)`}
                </p>
              }
            />
          )}
        </>
      )}
    </section>
  );
}
