#include "fakeva_vtable.h"

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <string>

#include "driver_data.h"

namespace mc::fakeva {
namespace {

DriverData& Data(VADriverContextP ctx) { return *static_cast<DriverData*>(ctx->pDriverData); }

FakeDriverState& State(VADriverContextP ctx) { return Data(ctx).state; }

// Locked holds the display's lock for one entry point.
std::unique_lock<std::mutex> Locked(VADriverContextP ctx) {
  return std::unique_lock<std::mutex>(Data(ctx).mutex);
}

// Complain tells the client why a call failed, through libva's error callback, as a real
// driver's complaints reach ffmpeg's log.
VAStatus Complain(VADriverContextP ctx, VAStatus status, const std::string& why) {
  const std::string message = "fakeva: " + why + "\n";
  if (ctx->error_callback) {
    ctx->error_callback(ctx, message.c_str());
  } else {
    std::fputs(message.c_str(), stderr);
  }
  return status;
}

VAStatus Terminate(VADriverContextP ctx) {
  delete static_cast<DriverData*>(ctx->pDriverData);
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
  auto lock = Locked(ctx);
  return State(ctx).CreateConfig(profile, entrypoint, attributes, count, config);
}

VAStatus DestroyConfig(VADriverContextP ctx, VAConfigID config) {
  auto lock = Locked(ctx);
  return State(ctx).DestroyConfig(config);
}

VAStatus QueryConfigAttributes(VADriverContextP ctx, VAConfigID config, VAProfile* profile,
                               VAEntrypoint* entrypoint, VAConfigAttrib* attributes, int* count) {
  auto lock = Locked(ctx);
  return State(ctx).QueryConfigAttributes(config, profile, entrypoint, attributes, count);
}

VAStatus QuerySurfaceAttributes(VADriverContextP ctx, VAConfigID config,
                                VASurfaceAttrib* attributes, unsigned* count) {
  auto lock = Locked(ctx);
  return State(ctx).QuerySurfaceAttributes(config, attributes, count);
}

// The pixel format of a surface request: the attribute the client set, else the one the
// render-target format implies.
std::uint32_t FourccOf(unsigned format, const VASurfaceAttrib* attributes, unsigned count) {
  for (unsigned i = 0; attributes && i < count; ++i) {
    if (attributes[i].type == VASurfaceAttribPixelFormat &&
        (attributes[i].flags & VA_SURFACE_ATTRIB_SETTABLE) != 0)
      return static_cast<std::uint32_t>(attributes[i].value.value.i);
  }
  if (format == VA_RT_FORMAT_YUV420) return VA_FOURCC_NV12;
  if (format == VA_RT_FORMAT_YUV420_10 || format == VA_RT_FORMAT_YUV420_10BPP)
    return VA_FOURCC_P010;
  return 0;
}

VAStatus CreateSurfaces2(VADriverContextP ctx, unsigned format, unsigned width, unsigned height,
                         VASurfaceID* surfaces, unsigned count, VASurfaceAttrib* attributes,
                         unsigned attribute_count) {
  if (!surfaces || count == 0) return VA_STATUS_ERROR_INVALID_PARAMETER;
  const std::uint32_t fourcc = FourccOf(format, attributes, attribute_count);
  if (fourcc == 0) {
    return Complain(ctx, VA_STATUS_ERROR_UNSUPPORTED_RT_FORMAT,
                    "surfaces of render-target format " + std::to_string(format) +
                        ": only YUV420 (NV12) and YUV420_10 (P010) are made");
  }
  auto lock = Locked(ctx);
  const VAStatus status = Data(ctx).memory.CreateSurfaces(fourcc, width, height, {surfaces, count});
  if (status == VA_STATUS_ERROR_RESOLUTION_NOT_SUPPORTED) {
    return Complain(ctx, status,
                    "surfaces of " + std::to_string(width) + "x" + std::to_string(height) +
                        ": each side must be 1 to " + std::to_string(kLargestSide));
  }
  return status;
}

VAStatus CreateSurfaces(VADriverContextP ctx, int width, int height, int format, int count,
                        VASurfaceID* surfaces) {
  if (width <= 0 || height <= 0 || count <= 0) return VA_STATUS_ERROR_INVALID_PARAMETER;
  return CreateSurfaces2(ctx, static_cast<unsigned>(format), static_cast<unsigned>(width),
                         static_cast<unsigned>(height), surfaces, static_cast<unsigned>(count),
                         nullptr, 0);
}

VAStatus DestroySurfaces(VADriverContextP ctx, VASurfaceID* surfaces, int count) {
  if (count < 0 || (count > 0 && !surfaces)) return VA_STATUS_ERROR_INVALID_PARAMETER;
  auto lock = Locked(ctx);
  return Data(ctx).memory.DestroySurfaces({surfaces, static_cast<std::size_t>(count)});
}

VAStatus SyncSurface(VADriverContextP ctx, VASurfaceID surface) {
  auto lock = Locked(ctx);
  return Data(ctx).memory.FindSurface(surface) ? VA_STATUS_SUCCESS
                                               : VA_STATUS_ERROR_INVALID_SURFACE;
}

VAStatus QuerySurfaceStatus(VADriverContextP ctx, VASurfaceID surface, VASurfaceStatus* status) {
  if (!status) return VA_STATUS_ERROR_INVALID_PARAMETER;
  auto lock = Locked(ctx);
  if (!Data(ctx).memory.FindSurface(surface)) return VA_STATUS_ERROR_INVALID_SURFACE;
  *status = VASurfaceReady;
  return VA_STATUS_SUCCESS;
}

VAStatus CreateContext(VADriverContextP ctx, VAConfigID config_id, int width, int height, int,
                       VASurfaceID*, int, VAContextID* context) {
  auto lock = Locked(ctx);
  const std::optional<CreatedConfig> config = State(ctx).ConfigOf(config_id);
  if (!config) return VA_STATUS_ERROR_INVALID_CONFIG;
  std::string error;
  const VAStatus status =
      Data(ctx).contexts.Create(*config, width, height, Data(ctx).state_dir, context, &error);
  return status == VA_STATUS_SUCCESS ? status : Complain(ctx, status, error);
}

VAStatus DestroyContext(VADriverContextP ctx, VAContextID context) {
  auto lock = Locked(ctx);
  return Data(ctx).contexts.Destroy(context);
}

VAStatus CreateBuffer(VADriverContextP ctx, VAContextID, VABufferType type, unsigned size,
                      unsigned elements, void* data, VABufferID* buffer) {
  auto lock = Locked(ctx);
  const VAStatus status = Data(ctx).memory.CreateBuffer(type, size, elements, data, buffer);
  if (status == VA_STATUS_ERROR_ALLOCATION_FAILED) {
    return Complain(ctx, status,
                    "a buffer of " + std::to_string(elements) + " elements of " +
                        std::to_string(size) + " bytes: empty, or larger than 256 MiB");
  }
  return status;
}

VAStatus BufferSetNumElements(VADriverContextP ctx, VABufferID buffer, unsigned elements) {
  auto lock = Locked(ctx);
  return Data(ctx).memory.SetElements(buffer, elements);
}

VAStatus MapBuffer(VADriverContextP ctx, VABufferID buffer, void** address) {
  auto lock = Locked(ctx);
  return Data(ctx).memory.Map(buffer, address);
}

VAStatus UnmapBuffer(VADriverContextP ctx, VABufferID buffer) {
  auto lock = Locked(ctx);
  return Data(ctx).memory.FindBuffer(buffer) ? VA_STATUS_SUCCESS : VA_STATUS_ERROR_INVALID_BUFFER;
}

VAStatus DestroyBuffer(VADriverContextP ctx, VABufferID buffer) {
  auto lock = Locked(ctx);
  return Data(ctx).memory.DestroyBuffer(buffer);
}

VAStatus BufferInfo(VADriverContextP ctx, VABufferID buffer, VABufferType* type, unsigned* size,
                    unsigned* elements) {
  auto lock = Locked(ctx);
  return Data(ctx).memory.Info(buffer, type, size, elements);
}

VAStatus BeginPicture(VADriverContextP ctx, VAContextID context, VASurfaceID target) {
  auto lock = Locked(ctx);
  return Data(ctx).contexts.Begin(context, target, Data(ctx).memory);
}

VAStatus RenderPicture(VADriverContextP ctx, VAContextID context, VABufferID* buffers, int count) {
  if (count < 0 || (count > 0 && !buffers)) return VA_STATUS_ERROR_INVALID_PARAMETER;
  auto lock = Locked(ctx);
  return Data(ctx).contexts.Render(context, {buffers, static_cast<std::size_t>(count)},
                                   Data(ctx).memory);
}

VAStatus EndPicture(VADriverContextP ctx, VAContextID context) {
  auto lock = Locked(ctx);
  EngineWork work;
  std::string error;
  const VAStatus status = Data(ctx).contexts.End(context, Data(ctx).memory, &work, &error);
  if (Data(ctx).view && work.busy.count() > 0) Data(ctx).view->AddBusy(work.engine, work.busy);
  if (status != VA_STATUS_SUCCESS && !error.empty()) return Complain(ctx, status, error);
  return status;
}

VAStatus QueryImageFormats(VADriverContextP, VAImageFormat* formats, int* count) {
  if (!formats || !count) return VA_STATUS_ERROR_INVALID_PARAMETER;
  formats[0] = VAImageFormat{VA_FOURCC_NV12, VA_LSB_FIRST, 12, 0, 0, 0, 0, 0, {}};
  formats[1] = VAImageFormat{VA_FOURCC_P010, VA_LSB_FIRST, 24, 0, 0, 0, 0, 0, {}};
  *count = kImageFormats;
  return VA_STATUS_SUCCESS;
}

VAStatus CreateImage(VADriverContextP ctx, VAImageFormat* format, int width, int height,
                     VAImage* image) {
  if (!format || width <= 0 || height <= 0) return VA_STATUS_ERROR_INVALID_PARAMETER;
  auto lock = Locked(ctx);
  return Data(ctx).memory.CreateImage(*format, static_cast<std::uint32_t>(width),
                                      static_cast<std::uint32_t>(height), image);
}

VAStatus DeriveImage(VADriverContextP ctx, VASurfaceID surface, VAImage* image) {
  auto lock = Locked(ctx);
  return Data(ctx).memory.DeriveImage(surface, image);
}

VAStatus DestroyImage(VADriverContextP ctx, VAImageID image) {
  auto lock = Locked(ctx);
  return Data(ctx).memory.DestroyImage(image);
}

VAStatus GetImage(VADriverContextP ctx, VASurfaceID surface, int x, int y, unsigned width,
                  unsigned height, VAImageID image) {
  auto lock = Locked(ctx);
  return Data(ctx).memory.GetImage(surface, x, y, width, height, image);
}

VAStatus PutImage(VADriverContextP ctx, VASurfaceID surface, VAImageID image, int src_x, int src_y,
                  unsigned src_width, unsigned src_height, int dest_x, int dest_y,
                  unsigned dest_width, unsigned dest_height) {
  auto lock = Locked(ctx);
  return Data(ctx).memory.PutImage(surface, image, src_x, src_y, src_width, src_height, dest_x,
                                   dest_y, dest_width, dest_height);
}

// The video processor runs no filters: it scales and converts only (va_process.h).
VAStatus QueryVideoProcFilters(VADriverContextP, VAContextID, VAProcFilterType*, unsigned* count) {
  if (!count) return VA_STATUS_ERROR_INVALID_PARAMETER;
  *count = 0;
  return VA_STATUS_SUCCESS;
}

VAStatus QueryVideoProcFilterCaps(VADriverContextP, VAContextID, VAProcFilterType, void*,
                                  unsigned*) {
  return VA_STATUS_ERROR_UNSUPPORTED_FILTER;
}

// The colour standards the video processor takes and makes. The lists are the driver's own:
// clients (ffmpeg's scale_vaapi) pass the capabilities uninitialised and read them after.
VAProcColorStandardType kColourStandards[] = {VAProcColorStandardBT601, VAProcColorStandardBT709};

VAStatus QueryVideoProcPipelineCaps(VADriverContextP, VAContextID, VABufferID*, unsigned filters,
                                    VAProcPipelineCaps* caps) {
  if (!caps) return VA_STATUS_ERROR_INVALID_PARAMETER;
  if (filters > 0) return VA_STATUS_ERROR_UNSUPPORTED_FILTER;
  *caps = VAProcPipelineCaps{};
  caps->input_color_standards = kColourStandards;
  caps->num_input_color_standards = std::size(kColourStandards);
  caps->output_color_standards = kColourStandards;
  caps->num_output_color_standards = std::size(kColourStandards);
  return VA_STATUS_SUCCESS;
}

// The driver offers no subpicture or display-attribute formats; a dump says none.
// Answering "none" keeps a caller that asks from failing for no reason.
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

void InstallVppVtable(VADriverVTableVPP& vtable) {
  vtable.vaQueryVideoProcFilters = QueryVideoProcFilters;
  vtable.vaQueryVideoProcFilterCaps = QueryVideoProcFilterCaps;
  vtable.vaQueryVideoProcPipelineCaps = QueryVideoProcPipelineCaps;
}

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
  vtable.vaCreateSurfaces = CreateSurfaces;
  vtable.vaCreateSurfaces2 = CreateSurfaces2;
  vtable.vaDestroySurfaces = DestroySurfaces;
  vtable.vaSyncSurface = SyncSurface;
  vtable.vaQuerySurfaceStatus = QuerySurfaceStatus;
  vtable.vaCreateContext = CreateContext;
  vtable.vaDestroyContext = DestroyContext;
  vtable.vaCreateBuffer = CreateBuffer;
  vtable.vaBufferSetNumElements = BufferSetNumElements;
  vtable.vaMapBuffer = MapBuffer;
  vtable.vaUnmapBuffer = UnmapBuffer;
  vtable.vaDestroyBuffer = DestroyBuffer;
  vtable.vaBufferInfo = BufferInfo;
  vtable.vaBeginPicture = BeginPicture;
  vtable.vaRenderPicture = RenderPicture;
  vtable.vaEndPicture = EndPicture;
  vtable.vaCreateImage = CreateImage;
  vtable.vaDeriveImage = DeriveImage;
  vtable.vaDestroyImage = DestroyImage;
  vtable.vaGetImage = GetImage;
  vtable.vaPutImage = PutImage;
  vtable.vaQuerySubpictureFormats = QuerySubpictureFormats;
  vtable.vaQueryDisplayAttributes = QueryDisplayAttributes;

  SetUnimplemented(vtable.vaPutSurface);
  SetUnimplemented(vtable.vaSetImagePalette);
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
