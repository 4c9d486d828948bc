import { addMemberRoute } from "./add.ts";
import { listMembersRoute } from "./list.ts";
import { removeMemberRoute } from "./remove.ts";
import { updateMemberRoute } from "./update.ts";

export const memberRoutes = [listMembersRoute, addMemberRoute, updateMemberRoute, removeMemberRoute];
