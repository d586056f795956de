export const ENVIRONMENTS = ['local', 'dev', 'qas', 'prod'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/** The deployment is named by the host's first label: `dev.`, `qas.`, anything else public is prod. */
export const environmentFromHost = (hostname: string): Environment => {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '::1' || host === '[::1]' || /^127\./.test(host) || host.endsWith('.local')) return 'local';
  if (host.startsWith('dev.') || host.startsWith('dev-')) return 'dev';
  if (host.startsWith('qas.') || host.startsWith('qas-')) return 'qas';
  return 'prod';
};

export const MOBILE_MAX_WIDTH = 1024;

export type Device = { mobile: boolean; wechat: boolean };

export const detectDevice = (userAgent: string, width: number): Device => ({
  mobile: /Android|iPhone|iPad|iPod|Mobile|HarmonyOS/i.test(userAgent) || width <= MOBILE_MAX_WIDTH,
  wechat: /MicroMessenger/i.test(userAgent),
});

/** The mini program's build to open from a deep link, by environment. */
export const miniProgramEnv = (env: Environment): 'release' | 'trial' | 'develop' =>
  env === 'prod' ? 'release' : env === 'qas' ? 'trial' : 'develop';
