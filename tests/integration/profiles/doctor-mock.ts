import { startMock } from '../../../mock/index.ts';

export type Mock = Awaited<ReturnType<typeof startMock>>;

/** The contract mock on free ports, without the public rate limit the doctor's many reads would meet. */
export const startDoctorMock = (): Promise<Mock> =>
  startMock({ publishingPort: 0, lodgingPort: 0, controlPort: 0, limits: { publicPerMinute: 0 } });
