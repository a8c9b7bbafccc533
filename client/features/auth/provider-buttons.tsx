import type { OauthUrls, Provider } from "../../lib/oauth.ts";
import { AUTH_TEXTS } from "./texts.ts";

interface Props {
  urls: OauthUrls | null;
  connecting: Provider | null;
  onStart(provider: Provider): void;
}

/** The two sign-in buttons; a provider the server left out is disabled, not broken. */
export function ProviderButtons({ urls, connecting, onStart }: Props) {
  const button = (provider: Provider, label: string) => {
    const unavailable = urls !== null && !urls[provider];
    const busy = connecting === provider;
    return (
      <button
        type="button"
        className={`btn btn-lg btn-block auth-provider auth-provider-${provider}`}
        disabled={connecting !== null || unavailable}
        aria-busy={busy}
        title={unavailable ? AUTH_TEXTS.providerUnavailable : undefined}
        onClick={() => onStart(provider)}
      >
        <span className="auth-provider-mark" aria-hidden="true">{provider === "vk" ? "VK" : "TG"}</span>
        {busy ? AUTH_TEXTS.connecting : label}
      </button>
    );
  };
  const none = urls !== null && !urls.vk && !urls.telegram;
  return (
    <div className="auth-providers">
      {button("telegram", AUTH_TEXTS.telegramButton)}
      {button("vk", AUTH_TEXTS.vkButton)}
      {none && <p className="muted small auth-terms">{AUTH_TEXTS.noProviders}</p>}
    </div>
  );
}
