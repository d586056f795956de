import { RoundPicture } from './round-picture';

/** An agent's round picture, or its initial on the accent colour when it has none or it fails to load. */
export const AgentAvatar = ({ src, name, size = 40 }: { src: string; name: string; size?: number }) => (
  <RoundPicture
    src={src}
    size={size}
    fallback={
      <span
        aria-hidden="true"
        className="grid shrink-0 place-items-center rounded-full bg-accent font-semibold text-accent-fg"
        style={{ width: size, height: size, fontSize: size * 0.42 }}
      >
        {Array.from(name)[0] ?? '?'}
      </span>
    }
  />
);
