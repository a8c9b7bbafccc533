import type { AiUse } from "../../../../domain/ai-use.ts";
import { useReviewTexts } from "../texts/review-texts-context.ts";
import "./ai-use-badge.css";

/**
 * The artist's answer to the AI question (issue 25, decision 0246), in the words («ИИ:
 * частично», «ИИ: да») in both panels. On a row or a card only «Частично» and «Да» are marked: «Нет»
 * is what nearly every track says, and a badge on every row would hide the ones that matter. The
 * track's details say every answer, «нет» and «не указано» (no answer) included.
 */
export function AiUseBadge({ value, detail = false }: { value: AiUse | null | undefined; detail?: boolean }) {
  const words = useReviewTexts();
  const answer = value ?? "none";
  if (!detail && answer !== "partly" && answer !== "yes") return null;
  const tone = answer === "yes" ? " st-badge-danger" : answer === "partly" ? " st-badge-warning" : "";
  return (
    <span className={`st-badge st-ai-use${tone}`} data-ai-use={answer}>
      {words.aiUse[answer]}
    </span>
  );
}
