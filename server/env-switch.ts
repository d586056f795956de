/** Whether an environment switch is on: `1`, `on`, `true` or `yes`, in any case; anything else is off. */
export const isOn = (value: string | undefined) => ['1', 'on', 'true', 'yes'].includes((value ?? '').trim().toLowerCase());
