import { useState } from "react";
import { errorText } from "../../lib/api.ts";
import { auth } from "../../lib/auth.ts";
import { flash } from "../../lib/flash.ts";
import { useLinkAccounts } from "./api.ts";
import { PROFILE_TEXTS } from "./profile-rules.ts";

/**
 * Linking a VK account to an account made with Telegram (spec 1 §1, §7 link_telegram_to_vk): the
 * phone is recorded, and the next VK sign-in whose VK-verified phone matches joins this account.
 */
export function LinkVkForm() {
  const [phone, setPhone] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const link = useLinkAccounts();

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (busy || !phone.trim()) return;
    setBusy(true);
    setError(null);
    try {
      const body = await link.mutateAsync({ action: "link_telegram_to_vk", phone_number: phone.trim() });
      setDone(body.message || PROFILE_TEXTS.linkPending);
      flash("success", body.message || PROFILE_TEXTS.linkPending);
      await auth.loadUser().catch(() => null);
    } catch (err) {
      setError(errorText(err, PROFILE_TEXTS.linkFailed, PROFILE_TEXTS.linkError));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="section stack" onSubmit={submit} noValidate aria-labelledby="link-vk-title">
      <h2 id="link-vk-title" className="label" style={{ fontSize: 16, margin: 0 }}>Привязать ВКонтакте</h2>
      <p className="hint" style={{ margin: 0 }}>
        Укажите номер телефона из ВКонтакте: при следующем входе через ВКонтакте с этим номером он
        присоединится к этому аккаунту.
      </p>
      {done
        ? <div className="alert alert-success" role="status">{done}</div>
        : (
          <div className="row" style={{ gap: 12, flexWrap: "wrap", alignItems: "flex-end" }}>
            <div className="field" style={{ flex: "1 1 200px" }}>
              <label className="label" htmlFor="link-phone">Телефон</label>
              <input
                id="link-phone"
                className="input"
                type="tel"
                inputMode="tel"
                autoComplete="tel"
                value={phone}
                onChange={(e) => setPhone(e.target.value)}
                placeholder="+7 999 123-45-67"
              />
            </div>
            <button type="submit" className="btn" disabled={busy || !phone.trim()}>
              {busy ? "Сохранение..." : "Привязать"}
            </button>
          </div>
        )}
      {error && <div className="alert alert-error" role="alert">{error}</div>}
    </form>
  );
}
