//! Choosing where the network runs, by name: `--device cpu` (burn's flex backend, always
//! built), `--device cuda[:N]` (burn's CUDA backend, the `cuda` feature) or
//! `--device vulkan[:N]` (burn's wgpu backend on Vulkan, the `vulkan` feature).

use burn::tensor::{Device, Tensor, TensorData};

/// The device names `--device` accepts, for help texts and error messages.
pub const DEVICE_NAMES: &str = "cpu, cuda, cuda:N, vulkan, vulkan:N";

/// The device called `name`: `cpu` (the flex backend), `cuda` / `cuda:N` (NVIDIA GPU N,
/// default 0) or `vulkan` / `vulkan:N` (the best Vulkan GPU, or discrete GPU N).
///
/// A GPU is tried with one small computation first, so a missing driver or GPU is an error
/// that says so here rather than a panic deep inside the first network call.
pub fn device_from_name(name: &str) -> Result<Device, String> {
    let lower = name.trim().to_ascii_lowercase();
    if lower == "cpu" {
        return Ok(Device::flex());
    }
    let (backend, index) = match lower.split_once(':') {
        None => (lower.as_str(), None),
        Some((backend, index)) => {
            let index = index.parse::<usize>().map_err(|_| {
                format!("device `{name}`: `{index}` is not a GPU index (use e.g. {backend}:0)")
            })?;
            (backend, Some(index))
        }
    };
    let device = match backend {
        "cuda" => cuda(index.unwrap_or(0))?,
        "vulkan" => vulkan(index)?,
        _ => {
            return Err(format!(
                "unknown device `{name}`: use one of {DEVICE_NAMES}"
            ));
        }
    };
    probe(device, &lower)
}

/// NVIDIA GPU `index` through burn's CUDA backend.
#[cfg(feature = "cuda")]
fn cuda(index: usize) -> Result<Device, String> {
    Ok(Device::cuda(index))
}

/// Without the `cuda` feature there is no CUDA backend to choose.
#[cfg(not(feature = "cuda"))]
fn cuda(_index: usize) -> Result<Device, String> {
    Err(not_built("cuda"))
}

/// The best Vulkan GPU, or discrete GPU `index`, through burn's wgpu backend.
#[cfg(feature = "vulkan")]
fn vulkan(index: Option<usize>) -> Result<Device, String> {
    use burn::tensor::DeviceKind;
    Ok(Device::vulkan(index.map_or(
        DeviceKind::DefaultDevice,
        DeviceKind::DiscreteGpu,
    )))
}

/// Without the `vulkan` feature there is no Vulkan backend to choose.
#[cfg(not(feature = "vulkan"))]
fn vulkan(_index: Option<usize>) -> Result<Device, String> {
    Err(not_built("vulkan"))
}

/// Why a GPU backend left out of this build cannot be chosen, and what to do.
#[cfg_attr(all(feature = "cuda", feature = "vulkan"), allow(dead_code))]
fn not_built(feature: &str) -> String {
    format!(
        "device {feature}: this oxo was built without it; rebuild with \
         `cargo build --release --features {feature}`, or use --device cpu"
    )
}

/// `device` once it has computed 1 + 2 + 3 correctly. The GPU backends report a missing
/// driver or GPU by panicking; that becomes an error naming the device.
fn probe(device: Device, name: &str) -> Result<Device, String> {
    let probe = device.clone();
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let sum = std::panic::catch_unwind(move || probe_sum(&probe));
    std::panic::set_hook(hook);
    match sum {
        Ok(6.0) => Ok(device),
        Ok(other) => Err(format!("device {name} computed 1 + 2 + 3 = {other}")),
        Err(panic) => {
            let reason = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("no reason given");
            Err(format!(
                "device {name} is not usable (is there a GPU with its driver?): {reason}"
            ))
        }
    }
}

/// 1 + 2 + 3 computed on `device`.
fn probe_sum(device: &Device) -> f32 {
    let t = Tensor::<1>::from_data(TensorData::new(vec![1.0f32, 2.0, 3.0], [3]), device);
    t.sum().into_scalar::<f32>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_is_the_flex_device_and_computes() {
        let device = device_from_name("cpu").unwrap();
        assert_eq!(device, Device::flex());
        assert_eq!(probe_sum(&device), 6.0);
        assert_eq!(device_from_name(" CPU ").unwrap(), Device::flex());
    }

    #[test]
    fn bad_names_say_what_is_accepted() {
        let err = device_from_name("tpu").unwrap_err();
        assert!(
            err.contains("unknown device `tpu`") && err.contains(DEVICE_NAMES),
            "{err}"
        );
        let err = device_from_name("cuda:x").unwrap_err();
        assert!(err.contains("not a GPU index"), "{err}");
    }

    #[cfg(not(feature = "cuda"))]
    #[test]
    fn a_backend_left_out_says_how_to_get_it() {
        for name in ["cuda", "cuda:1"] {
            let err = device_from_name(name).unwrap_err();
            assert!(
                err.contains("--features cuda") && err.contains("--device cpu"),
                "{err}"
            );
        }
    }
}
