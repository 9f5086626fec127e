#include "fakeva_vtable.h"

#include <algorithm>

#include "fake_driver_state.h"

namespace mc::fakeva {
namespace {

FakeDriverState& State(VADriverContextP ctx) {
  return *static_cast<FakeDriverState*>(ctx->pDriverData);
}

VAStatus Terminate(VADriverContextP ctx) {
  delete static_cast<FakeDriverState*>(ctx->pDriverData);
  ctx->pDriverData = nullptr;
  ctx->str_vendor = nullptr;
  return VA_STATUS_SUCCESS;
}

VAStatus QueryConfigProfiles(VADriverContextP ctx, VAProfile* profiles, int* count) {
  if (!profiles || !count) return VA_STATUS_ERROR_INVALID_PARAMETER;
  const std::vector<VAProfile>& listed = State(ctx).profiles();
  std::ranges::copy(listed, profiles);
  *count = static_cast<int>(listed.size());
  return VA_STATUS_SUCCESS;
}

VAStatus QueryConfigEntrypoints(VADriverContextP ctx, VAProfile profile, VAEntrypoint* entrypoints,
                                int* count) {
  return State(ctx).QueryEntrypoints(profile, entrypoints, count);
}

VAStatus GetConfigAttributes(VADriverContextP ctx, VAProfile profile, VAEntrypoint entrypoint,
                             VAConfigAttrib* attributes, int count) {
  return State(ctx).GetConfigAttributes(profile, entrypoint, attributes, count);
}

VAStatus CreateConfig(VADriverContextP ctx, VAProfile profile, VAEntrypoint entrypoint,
                      VAConfigAttrib* attributes, int count, VAConfigID* config) {
  return State(ctx).CreateConfig(profile, entrypoint, attributes, count, config);
}

VAStatus DestroyConfig(VADriverContextP ctx, VAConfigID config) {
  return State(ctx).DestroyConfig(config);
}

VAStatus QueryConfigAttributes(VADriverContextP ctx, VAConfigID config, VAProfile* profile,
                               VAEntrypoint* entrypoint, VAConfigAttrib* attributes, int* count) {
  return State(ctx).QueryConfigAttributes(config, profile, entrypoint, attributes, count);
}

VAStatus QuerySurfaceAttributes(VADriverContextP ctx, VAConfigID config,
                                VASurfaceAttrib* attributes, unsigned* count) {
  return State(ctx).QuerySurfaceAttributes(config, attributes, count);
}

// The driver offers no image, subpicture or display-attribute formats: a dump does not
// say any, and answering "none" keeps a caller that asks from failing for no reason.
VAStatus QueryImageFormats(VADriverContextP, VAImageFormat*, int* count) {
  if (count) *count = 0;
  return VA_STATUS_SUCCESS;
}

VAStatus QuerySubpictureFormats(VADriverContextP, VAImageFormat*, unsigned* flags,
                                unsigned* count) {
  if (flags) *flags = 0;
  if (count) *count = 0;
  return VA_STATUS_SUCCESS;
}

VAStatus QueryDisplayAttributes(VADriverContextP, VADisplayAttribute*, int* count) {
  if (count) *count = 0;
  return VA_STATUS_SUCCESS;
}

// One definition answers every entry the fake does not implement, whatever its
// parameters: SetUnimplemented deduces them from the vtable slot it fills.
template <typename... Args>
VAStatus Unimplemented(Args...) {
  return VA_STATUS_ERROR_UNIMPLEMENTED;
}

template <typename... Args>
void SetUnimplemented(VAStatus (*&entry)(Args...)) {
  entry = &Unimplemented<Args...>;
}

}  // namespace

void InstallVtable(VADriverVTable& vtable) {
  vtable.vaTerminate = Terminate;
  vtable.vaQueryConfigProfiles = QueryConfigProfiles;
  vtable.vaQueryConfigEntrypoints = QueryConfigEntrypoints;
  vtable.vaGetConfigAttributes = GetConfigAttributes;
  vtable.vaCreateConfig = CreateConfig;
  vtable.vaDestroyConfig = DestroyConfig;
  vtable.vaQueryConfigAttributes = QueryConfigAttributes;
  vtable.vaQuerySurfaceAttributes = QuerySurfaceAttributes;
  vtable.vaQueryImageFormats = QueryImageFormats;
  vtable.vaQuerySubpictureFormats = QuerySubpictureFormats;
  vtable.vaQueryDisplayAttributes = QueryDisplayAttributes;

  SetUnimplemented(vtable.vaCreateSurfaces);
  SetUnimplemented(vtable.vaDestroySurfaces);
  SetUnimplemented(vtable.vaCreateContext);
  SetUnimplemented(vtable.vaDestroyContext);
  SetUnimplemented(vtable.vaCreateBuffer);
  SetUnimplemented(vtable.vaBufferSetNumElements);
  SetUnimplemented(vtable.vaMapBuffer);
  SetUnimplemented(vtable.vaUnmapBuffer);
  SetUnimplemented(vtable.vaDestroyBuffer);
  SetUnimplemented(vtable.vaBeginPicture);
  SetUnimplemented(vtable.vaRenderPicture);
  SetUnimplemented(vtable.vaEndPicture);
  SetUnimplemented(vtable.vaSyncSurface);
  SetUnimplemented(vtable.vaQuerySurfaceStatus);
  SetUnimplemented(vtable.vaPutSurface);
  SetUnimplemented(vtable.vaCreateImage);
  SetUnimplemented(vtable.vaDeriveImage);
  SetUnimplemented(vtable.vaDestroyImage);
  SetUnimplemented(vtable.vaSetImagePalette);
  SetUnimplemented(vtable.vaGetImage);
  SetUnimplemented(vtable.vaPutImage);
  SetUnimplemented(vtable.vaCreateSubpicture);
  SetUnimplemented(vtable.vaDestroySubpicture);
  SetUnimplemented(vtable.vaSetSubpictureImage);
  SetUnimplemented(vtable.vaSetSubpictureChromakey);
  SetUnimplemented(vtable.vaSetSubpictureGlobalAlpha);
  SetUnimplemented(vtable.vaAssociateSubpicture);
  SetUnimplemented(vtable.vaDeassociateSubpicture);
  SetUnimplemented(vtable.vaGetDisplayAttributes);
  SetUnimplemented(vtable.vaSetDisplayAttributes);
}

}  // namespace mc::fakeva
