import { confirmEnrolmentRoute } from "./confirm.ts";
import { disableTwoFactorRoute } from "./disable.ts";
import { startEnrolmentRoute } from "./enrol.ts";
import { regenerateRecoveryCodesRoute } from "./recovery-codes.ts";
import { secondStepRoute } from "./second-step.ts";
import { twoFactorStatusRoute } from "./status.ts";

/** The status in both profiles; the local profile's enrolment, disable, recovery codes and second sign-in step. */
export const twoFactorRoutes = [twoFactorStatusRoute];
export const localTwoFactorRoutes = [
  startEnrolmentRoute,
  confirmEnrolmentRoute,
  disableTwoFactorRoute,
  regenerateRecoveryCodesRoute,
  secondStepRoute,
];
